/**
 * Usage mistakes, as a CI script sees them: exit 2 (never 1, which is drift under --check),
 * one line saying what is wrong and one hint line on stderr, never the whole help. And the
 * help itself, per command, on stdout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliAsync } from "./run-cli.js";

// No package.json here or above: no settings file can supply what the flags leave out.
const cwd = mkdtempSync(join(tmpdir(), "rcp-gen-usage-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const everything = "hint: rcp-gen --help lists every option and command";
const mistakes: Array<[string, string[], string, string]> = [
  [
    "--schema without --out",
    ["generate", "--schema", "schema"],
    'no --out given, and no rcp-gen.config.json or "rcp-gen" key in package.json here or above',
    `hint: rcp-gen --schema <dir> --out <dir>, or rcp-gen init to start a project with its settings; ${everything.slice(6)}`,
  ],
  ["an unknown flag", ["--schema", "s", "--out", "o", "--frob"], "unknown option --frob", everything],
  [
    "a mistyped flag, with the flag meant",
    ["--shcema", "s", "--out", "o"],
    "unknown option --shcema (did you mean --schema?)",
    everything,
  ],
  ["a flag without its value", ["--out", "o", "--schema"], "--schema needs a value", everything],
  [
    "--check with --watch",
    ["--schema", "s", "--out", "o", "--check", "--watch"],
    "--check and --watch cannot be used together",
    everything,
  ],
  [
    "a --module-format that is neither ts nor js",
    ["--schema", "s", "--out", "o", "--module-format", "cjs"],
    '--module-format cannot be "cjs" (choices: "ts", "js")',
    everything,
  ],
  ["a mistyped command", ["genrate"], 'unknown command "genrate" (did you mean generate?)', everything],
  ["a word after -- where no engine is started", ["--", "schema"], 'unexpected argument "schema"', everything],
  [
    "an unknown flag of init",
    ["init", "--frob"],
    "unknown option --frob",
    "hint: rcp-gen init --help lists its options",
  ],
  [
    "a flag of the generator given to init",
    ["init", "--schema", "s"],
    "unknown option --schema",
    "hint: rcp-gen init --help lists its options",
  ],
  [
    "two folders for init",
    ["init", "a", "b"],
    'unexpected argument "b"',
    "hint: rcp-gen init --help lists its options",
  ],
  [
    "a mistyped flag of breaking",
    ["breaking", "--againts", "main"],
    "unknown option --againts (did you mean --against?)",
    "hint: rcp-gen breaking --help lists its options",
  ],
];

// Each case is a child process of its own: they run side by side.
describe.concurrent("a usage mistake", () => {
  it.each(mistakes)("%s: exit 2, what is wrong, then one hint line", async (_name, args, problem, hint) => {
    const result = await runCliAsync(args, cwd);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")).toEqual([`rcp-gen: ${problem}`, hint, ""]);
    expect(result.status).toBe(2);
  });
});

describe.concurrent("--help", () => {
  const commands: Array<[string, string[], string, string[]]> = [
    [
      "generate",
      ["generate", "--help"],
      "rcp-gen generate [options]",
      ["--schema", "--out", "--module-format", "--watch"],
    ],
    ["init", ["init", "--help"], "rcp-gen init [dir] [--force]", ["--force", "dir  The project's folder"]],
    [
      "conform",
      ["conform", "--help"],
      "rcp-gen conform [options] -- <command> [args...]",
      ["--http", "--level", "--slow-meta"],
    ],
    [
      "breaking",
      ["breaking", "--help"],
      "rcp-gen breaking --against <dir | git-ref | npm:spec>",
      ["--against", "--level"],
    ],
    ["lint", ["lint", "--help"], "rcp-gen lint [--schema dir] [--json]", ["  described ", "--schema"]],
    ["mcp", ["mcp", "--help"], "rcp-gen mcp [options] -- <command> [args...]", ["--listen", "--allowed-host"]],
    ["inspect", ["inspect", "--help"], "rcp-gen inspect [options] -- <command> [args...]", ["--port", "--open"]],
  ];
  it.each(commands)("of %s: its usage line first, then its own options only", async (_name, args, usage, options) => {
    const result = await runCliAsync(args, cwd);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout.split("\n")[0]).toContain(usage);
    for (const option of options) expect(result.stdout).toContain(option);
    if (args[0] !== "generate") expect(result.stdout).not.toContain("--targets");
  });
});

it("completion prints a shell script that asks rcp-gen for the words to complete", async () => {
  const script = await runCliAsync(["completion"], cwd);
  expect(script.stderr).toBe("");
  expect(script.status).toBe(0);
  expect(script.stdout).toMatch(/^###-begin-rcp-gen-completions-###$/m);
  expect(script.stdout).toContain("rcp-gen --get-yargs-completions");
  const words = await runCliAsync(["--get-yargs-completions", "rcp-gen", "in"], cwd);
  expect(words.stdout.split("\n")).toEqual(expect.arrayContaining(["init", "inspect"]));
});

it("--version prints the generator's version", async () => {
  const result = await runCliAsync(["--version"], cwd);
  expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  expect(result.status).toBe(0);
});
