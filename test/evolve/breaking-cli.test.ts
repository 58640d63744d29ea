/**
 * `rcp-gen breaking` as a CI step runs it: the built CLI in a git repository, against a folder
 * or a ref, its table, its JSON, its exit codes (0 nothing breaks at the level, 1 something
 * does, 2 a usage mistake, said in one line).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../generator/run-cli.js";
import { removeSchemaCopies, repoSchemaDir, schemaCopy } from "./schema-copy.js";

let project: string;
const git = (...args: string[]) => {
  const result = spawnSync("git", args, { cwd: project, encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
};

/** A project whose first commit holds schema/ as this repository has it; its working copy is then edited. */
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), "rcp-breaking-"));
  cpSync(repoSchemaDir, join(project, "schema"), { recursive: true });
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "schema");
});
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  removeSchemaCopies();
});

describe("rcp-gen breaking", () => {
  it("exits 0 against a ref whose schema/ is the same", () => {
    const run = runCli(["breaking", "--against", "main"], project);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("no changes against main:schema");
    expect(run.status).toBe(0);
  });

  it("exits 1 with a table naming file, pointer, rule and severity when a change breaks", () => {
    const hit = join(project, "schema", "types", "hit.json");
    writeFileSync(hit, JSON.stringify({ ...JSON.parse(readFileSync(hit, "utf8")), required: ["id"] }));
    const run = runCli(["breaking", "--against", "main"], project);
    git("checkout", "--", "schema");
    expect(run.stdout).toMatch(
      /^BREAKING\s+required-removed\s+types\/hit\.json#\/required\s+"score" is no longer required/m,
    );
    expect(run.stdout).toContain("1 breaking change at the wire level, of 1");
    expect(run.status).toBe(1);
  });

  it("reads --against as a folder too, and prints JSON with --json", () => {
    const changed = schemaCopy((files) => files.edit("types/usage.json", (doc) => (doc.title = "UsageReport")));
    const run = runCli(["breaking", "--schema", changed, "--against", repoSchemaDir, "--json"], project);
    const report = JSON.parse(run.stdout) as { findings: unknown };
    expect(report).toMatchObject({ level: "wire", breaking: false });
    expect(report.findings).toEqual([
      {
        rule: "type-renamed",
        severity: "code",
        file: "types/usage.json",
        pointer: "/title",
        message: "type Usage is now UsageReport",
        via: [],
      },
    ]);
    expect(run.status).toBe(0);
  });

  it("fails a code-only change at --level code", () => {
    const changed = schemaCopy((files) => files.edit("types/usage.json", (doc) => (doc.title = "UsageReport")));
    const run = runCli(["breaking", "--schema", changed, "--against", repoSchemaDir, "--level", "code"], project);
    expect(run.stdout).toMatch(/^code\s+type-renamed/m);
    expect(run.status).toBe(1);
  });

  it.each([
    [["breaking"], "rcp-gen: --against <dir | git-ref | npm:spec> is required"],
    [
      ["breaking", "--against", "main", "--level", "file"],
      'rcp-gen: --level cannot be "file" (choices: "wire", "code")',
    ],
  ])("a usage mistake exits 2 in one line: %j", (args, line) => {
    const run = runCli(args, project);
    expect(run.stderr.split("\n")[0]).toBe(line);
    expect(run.stderr).toContain("hint: rcp-gen breaking --help");
    expect(run.status).toBe(2);
  });

  it("a ref that is not here (origin/main without a remote) suggests HEAD~1, a tag or a folder", () => {
    const run = runCli(["breaking", "--against", "origin/main"], project);
    expect(run.stderr.split("\n")).toEqual([
      "rcp-gen: origin/main is neither a folder nor a git commit",
      "hint: compare with a commit here (--against HEAD~1), a tag (--against v1.0.0), or a folder holding the old schema: --against old-schema/",
      "",
    ]);
    expect(run.status).toBe(2);
  });
});
