/**
 * `rcp-gen lint`: this repository's schema/ passes every rule, and each rule finds what it is
 * for in a copy of schema/ with one edit; the settings set a rule off, warn or error.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintFolder } from "../../generator/src/evolve/lint.js";
import { runCli } from "../generator/run-cli.js";
import { remove, removeSchemaCopies, repoRoot, repoSchemaDir, schemaCopy, set, type Files } from "./schema-copy.js";

afterAll(removeSchemaCopies);

const found = (dir: string) => lintFolder(dir).map((finding) => `${finding.rule} ${finding.file}#${finding.pointer}`);

describe("rcp-gen lint", () => {
  it("finds nothing in this repository's schema/", () => {
    expect(lintFolder(repoSchemaDir)).toEqual([]);
  });

  it("finds nothing in the schema `rcp-gen init` scaffolds (RCP/1 and its x-example/lookup)", () => {
    const template = join(repoRoot, "generator/templates/init/schema/methods/x-example-lookup.json");
    const scaffold = schemaCopy((files) =>
      files.write("methods/x-example-lookup.json", JSON.parse(readFileSync(template, "utf8")) as object),
    );
    expect(found(scaffold)).toEqual([]);
  });

  const cases: Array<[string, (files: Files) => void, string[]]> = [
    [
      "described: a member without a description",
      (files) => files.edit("types/hit.json", (doc) => remove(doc, "/properties/text/description")),
      ["described types/hit.json#/properties/text"],
    ],
    [
      "vendor-prefix: a method and a capability RCP/1 does not define, without x- (§6.2)",
      (files) => {
        files.write("methods/echo.json", {
          ...files.read("methods/ping.json"),
          title: "echo",
          "x-rcp": { kind: "method", method: "echo", capability: "tracing", streaming: false },
        });
        files.edit("capabilities.json", (doc) => {
          set(doc, "/$defs/serverCapabilities/properties/tracing", { type: "object", description: "Trace ids." });
        });
      },
      [
        "vendor-prefix methods/echo.json#/x-rcp/method",
        "vendor-prefix capabilities.json#/$defs/serverCapabilities/properties/tracing",
      ],
    ],
    [
      "streaming-partial: a streaming method without $defs/partial",
      (files) => files.edit("methods/catalog-list.json", (doc) => set(doc, "/x-rcp/streaming", true)),
      ["streaming-partial methods/catalog-list.json#/x-rcp/streaming"],
    ],
    [
      "gate-capability: a gate naming a member its capability does not declare",
      (files) => files.edit("methods/retrieve.json", (doc) => set(doc, "/x-rcp/gates/0/in", "retrieve.modez")),
      ["gate-capability methods/retrieve.json#/x-rcp/gates/0/in"],
    ],
    [
      "examples-valid: an example its schema rejects",
      (files) => files.edit("types/hit.json", (doc) => set(doc, "/properties/confidence/examples", [0.5, 2])),
      ["examples-valid types/hit.json#/properties/confidence/examples/1"],
    ],
    [
      "naming: a method file not named after its method, a snake_case member",
      (files) => {
        files.write("methods/pinger.json", files.read("methods/ping.json"));
        files.remove("methods/ping.json");
        files.edit("types/hit.json", (doc) => set(doc, "/properties/doc_id", { type: "string", description: "Id." }));
      },
      ["naming methods/pinger.json#/x-rcp/method", "naming types/hit.json#/properties/doc_id"],
    ],
    [
      "open-objects: additionalProperties that accepts nothing (§4.6)",
      (files) => files.edit("types/hit.json", (doc) => set(doc, "/properties/meta/additionalProperties", { not: {} })),
      ["open-objects types/hit.json#/properties/meta/additionalProperties"],
    ],
  ];

  it.each(cases)("%s", (_name, change, expected) => {
    expect(found(schemaCopy(change)).sort()).toEqual(expected.sort());
  });
});

describe("rcp-gen lint settings", () => {
  const project = mkdtempSync(join(tmpdir(), "rcp-lint-"));
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  const undescribed = schemaCopy((files) =>
    files.edit("types/hit.json", (doc) => remove(doc, "/properties/text/description")),
  );
  const settings = (lint: object) =>
    writeFileSync(join(project, "rcp-gen.config.json"), JSON.stringify({ schema: undescribed, lint }));

  it("a rule is an error unless the settings say otherwise: exit 1", () => {
    settings({});
    const run = runCli(["lint"], project);
    expect(run.stdout).toMatch(
      /^error\s+described\s+types\/hit\.json#\/properties\/text\s+the member has no description$/m,
    );
    expect(run.status).toBe(1);
  });

  it("warn reports and exits 0; off (here in package.json) reports nothing", () => {
    settings({ described: "warn" });
    const warned = runCli(["lint", "--json"], project);
    expect(JSON.parse(warned.stdout)).toMatchObject({ errors: 0, findings: [{ level: "warn", rule: "described" }] });
    expect(warned.status).toBe(0);
    // The same settings under package.json's "rcp-gen" key.
    rmSync(join(project, "rcp-gen.config.json"));
    const manifest = { "rcp-gen": { schema: undescribed, lint: { described: "off" } } };
    writeFileSync(join(project, "package.json"), JSON.stringify(manifest));
    expect(runCli(["lint"], project)).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("0 errors, 0 warnings") as unknown,
    });
    rmSync(join(project, "package.json"));
  });

  it("a rule id that does not exist is a usage error, in one line", () => {
    settings({ describe: "off" });
    const run = runCli(["lint"], project);
    expect(run.stderr.split("\n")[0]).toBe(
      "rcp-gen: rcp-gen.config.json: lint.describe: no such rule (rules: described, vendor-prefix, streaming-partial, gate-capability, examples-valid, naming, open-objects)",
    );
    expect(run.status).toBe(2);
  });

  it('reads this repository\'s settings (package.json "rcp-gen") from its root', () => {
    expect(runCli(["lint"], repoRoot)).toMatchObject({ status: 0 });
  });
});
