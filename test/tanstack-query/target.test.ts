/**
 * The `tanstack-query` target as rcp-gen writes it: off by default; a method's `x-rcp` `writes`
 * decides mutation options or query options; a streaming read's query is built on
 * `streamedQuery`. Checked on generated/ and on a schema copy whose retrieve says it writes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveTargets } from "../../generator/src/targets/builtin.js";
import { removeSchemaCopies, schemaCopy } from "../evolve/schema-copy.js";
import { repoRoot, runCli } from "../generator/run-cli.js";

const out = mkdtempSync(join(tmpdir(), "rcp-tanstack-target-"));
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  removeSchemaCopies();
});

const exported = (source: string) =>
  [...source.matchAll(/^export function (\w+)\(/gm)].map((match) => match[1]!).sort();

describe("the tanstack-query target", () => {
  it("is off by default, and brings the client it imports", () => {
    expect(resolveTargets(["default"]).targets.map((target) => target.name)).not.toContain("tanstack-query");
    expect(resolveTargets(["tanstack-query"]).added).toEqual(expect.arrayContaining(["client", "methods", "types"]));
  });

  it("gives writes mutation options and reads query options, streamed when the method streams (generated/)", () => {
    const source = readFileSync(join(repoRoot, "generated", "tanstack-query.ts"), "utf8");
    const names = exported(source);
    expect(names.filter((name) => name.endsWith("MutationOptions"))).toEqual([
      "feedbackMutationOptions",
      "indexAddMutationOptions",
      "indexDeleteMutationOptions",
      "memoryBuildMutationOptions",
    ]);
    expect(names).toContain("catalogListQueryOptions");
    expect(names).not.toContain("initializeQueryOptions");
    expect(source).toMatch(/retrieveQueryOptions\(client: Pick<RcpClientBase, "retrieveStream">/);
    expect(source).toMatch(/import \{[^}]*experimental_streamedQuery[^}]*\} from "@tanstack\/query-core";/);
  });

  it("follows the schema: a retrieve that says it writes gets mutation options", () => {
    const schema = schemaCopy((files) =>
      files.edit("methods/retrieve.json", (document) => {
        (document["x-rcp"] as Record<string, unknown>)["writes"] = true;
      }),
    );
    const run = runCli(["--schema", schema, "--out", out, "--targets", "tanstack-query", "--quiet"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const names = exported(readFileSync(join(out, "tanstack-query.ts"), "utf8"));
    expect(names).toContain("retrieveMutationOptions");
    expect(names).not.toContain("retrieveQueryOptions");
  });
});
