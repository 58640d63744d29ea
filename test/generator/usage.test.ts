/**
 * Usage mistakes, as a CI script sees them: exit 2 (never 1, which is drift under --check),
 * one line saying what is wrong and one hint line on stderr, never the whole help.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

// No package.json here or above: no settings file can supply what the flags leave out.
const cwd = mkdtempSync(join(tmpdir(), "rcp-gen-usage-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const mistakes: Array<[string, string[], string]> = [
  [
    "--out without --schema",
    ["--out", "x"],
    'no --schema given, and no rcp-gen.config.json or "rcp-gen" key in package.json here or above',
  ],
  [
    "--schema without --out",
    ["--schema", "schema"],
    'no --out given, and no rcp-gen.config.json or "rcp-gen" key in package.json here or above',
  ],
  ["an unknown flag", ["--schema", "s", "--out", "o", "--frob"], "unknown option --frob"],
  ["a flag without its value", ["--out", "o", "--schema"], "--schema needs a value"],
  [
    "--check with --watch",
    ["--schema", "s", "--out", "o", "--check", "--watch"],
    "--check and --watch cannot be used together",
  ],
  ["an unknown command", ["generate"], 'unexpected argument "generate"'],
  ["an unknown flag of init", ["init", "--frob"], "unknown option --frob"],
  ["two folders for init", ["init", "a", "b"], "init takes one folder, not 2"],
];

it.each(mistakes)("%s: exit 2, what is wrong, then one hint line", (_name, args, problem) => {
  const result = runCli(args, cwd);
  expect(result.stdout).toBe("");
  expect(result.stderr.split("\n")).toEqual([`rcp-gen: ${problem}`, expect.stringMatching(/^hint: \S/), ""]);
  expect(result.status).toBe(2);
});
