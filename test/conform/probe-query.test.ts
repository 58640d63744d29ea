/**
 * `rcp-gen conform` picks its probe query from the project (issue 40): an L1 engine with a
 * similarity threshold (test/fixtures/conform/threshold-engine.ts) finds nothing for the
 * default "retrieval". With `conform.query` in the project's settings (rcp-gen.config.json or
 * package.json's "rcp-gen" key), or a retrieve example on its subject, it certifies L1 and its
 * deadline is shown enforced (§13.1); `--query` beats the setting. With no source of a query,
 * the checks whose evidence is hits are inconclusive, not failed and not warned about (§14),
 * the level is not certified, and the command exits 3.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { runConform, THRESHOLD, type JsonReport } from "./conform-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-conform-query-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder holding `files` (JSON values), as a user's project would. */
function project(name: string, files: Record<string, unknown>): string {
  const dir = join(scratch, name);
  for (const [path, value] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(value));
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** `rcp-gen conform --json` against the threshold engine in `dir`: the query it chose, once L1 is seen to hold. */
async function queryOfL1Run(dir: string): Promise<unknown> {
  const run = await runConform(["--json", "--", ...THRESHOLD], dir);
  const report = JSON.parse(run.stdout) as JsonReport & { query: unknown };
  expect(report).toMatchObject({ certifiedLevel: "L1", declarationHolds: true });
  expect(run.status).toBe(0);
  return report.query;
}

/** Calls that found hits take this long, so a deadline of 1 ms must cut them short (§13.1). */
const SLOW = ["--slow-meta", '{"x-delayMs":300}'];

describe("rcp-gen conform against an engine with a similarity threshold", () => {
  it("certifies L1 with conform.query from rcp-gen.config.json, deadline enforced", async () => {
    const dir = project("config-file", { "rcp-gen.config.json": { conform: { query: "compost tomatoes" } } });
    const run = await runConform([...SLOW, "--", ...THRESHOLD], dir);
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n")[2]).toBe('probe query "compost tomatoes" (conform.query in rcp-gen.config.json)');
    expect(run.stdout).toMatch(/\nL0 +pass +§13\.1 +deadline:enforced:/);
    expect(run.stdout).toContain("\nL0 certified · L1 certified · L2 not certified\ndeclared L1: holds\n");
    expect(run.status).toBe(0);
  });

  it("reads conform.query under package.json's rcp-gen key too", async () => {
    const dir = project("package-key", {
      "package.json": { type: "module", "rcp-gen": { conform: { query: "tomatoes seedlings" } } },
    });
    expect(await queryOfL1Run(dir)).toEqual({
      text: "tomatoes seedlings",
      source: "rcp-gen.conform.query in package.json",
      given: true,
      levelQuery: "tomatoes seedlings",
    });
  });

  it("lets --query win over the setting", async () => {
    const dir = project("flag-wins", { "rcp-gen.config.json": { conform: { query: "quantum chromodynamics" } } });
    const run = await runConform(["--query", "compost tomatoes", "--", ...THRESHOLD], dir);
    expect(run.stdout.split("\n")[2]).toBe('probe query "compost tomatoes" (given)');
    expect(run.stdout).toContain("declared L1: holds\n");
    expect(run.status).toBe(0);
  });

  it("without a setting, takes the query of a retrieve example the engine finds hits for", async () => {
    const dir = project("examples", {
      "rcp-gen.config.json": { schema: join(repoRoot, "schema"), examples: "examples" },
      "examples/methods.retrieve.params/a-off-subject.json": { value: { query: "transformer attention", k: 3 } },
      "examples/methods.retrieve.params/b-on-subject.json": { value: { query: "prune tomatoes", k: 3 } },
    });
    // The first example finds nothing; the second does, and the level checks query words of its first hit.
    expect(await queryOfL1Run(dir)).toEqual({
      text: "prune tomatoes",
      source: "example methods.retrieve.params/b-on-subject.json",
      given: false,
      found: true,
      levelQuery: "prune tomatoes strong",
    });
  });

  it("without any source of a query, says inconclusive: not a failure, not a deadline warning, exit 3", async () => {
    const run = await runConform([...SLOW, "--", ...THRESHOLD], project("no-settings", {}));
    expect(run.stderr).toBe("");
    const lines = run.stdout.split("\n");
    expect(lines[2]).toBe('probe query "retrieval" (the default); the engine found no hits for it');
    expect(run.stdout).not.toMatch(/\n\S+ +(FAIL|warn) /);
    const hint = 'no hits for "retrieval", set conform.query (or --query)';
    for (const id of ["deadline:enforced", "l1.modes-rank", "l1.k-and-min-score", "l1.filter-and-citations"]) {
      const row = lines.findIndex((line) => line.includes(` ${id}: `));
      expect(lines[row], id).toMatch(/^L\d +inconclusive /);
      expect(lines[row + 1]!.trim(), id).toBe(`-> ${hint}`);
    }
    expect(lines.slice(-4)).toEqual([
      expect.stringMatching(/^\d+ checks: \d+ pass, 0 fail, 0 warn \(SHOULD\), \d+ inconclusive, \d+ skip, in \d+ ms$/),
      "L0 certified · L1 inconclusive · L2 inconclusive",
      `declared L1: inconclusive: ${hint} (certified L0)`,
      "",
    ]);
    expect(run.status).toBe(3);
  });
});
