/**
 * The docs targets as committed in generated/ (kept current by cli.test's --check): the
 * OpenRPC document validates against the official OpenRPC meta-schema and says what the
 * schema says (every method and notification, x-rcp annotations, streaming, errors, every
 * $ref resolving); the Markdown reference has a page per method with the facts and the
 * example taken from the valid fixtures.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { loadRepoSchema } from "../schema/schema-folder.js";
import { repoRoot } from "./run-cli.js";

const folder = loadRepoSchema();
const generated = (path: string) => readFileSync(join(repoRoot, "generated", path), "utf8");
const openrpc = JSON.parse(generated("openrpc.json")) as {
  openrpc: string;
  info: { title: string };
  methods: Array<{
    name: string;
    params: Array<{ name: string; required: boolean }>;
    errors: Array<{ $ref: string }>;
    examples?: Array<{ params: Array<{ name: string; value: unknown }> }>;
    "x-rcp": Record<string, unknown>;
    "x-rcp-progress"?: { notification: string; partial?: { $ref: string } };
  }>;
  components: { schemas: Record<string, unknown>; errors: Record<string, { code: number; message: string }> };
  "x-rcp-notifications": Array<{ name: string; direction: string }>;
};
const method = (name: string) => openrpc.methods.find((entry) => entry.name === name)!;

describe("generated/openrpc.json", () => {
  it("is a valid OpenRPC 1.3 document by the official meta-schema (@open-rpc/meta-schema)", () => {
    // Both packages are CommonJS whose typings declare types only: their schemas are read with require.
    const require = createRequire(import.meta.url);
    const openrpcMeta = (require("@open-rpc/meta-schema") as { openrpcDocument: object }).openrpcDocument;
    const jsonSchemaMeta = (require("@json-schema-tools/meta-schema") as { jsonSchema: object }).jsonSchema;
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    // OpenRPC's meta-schema is written in that JSON Schema meta-schema, and refers to it without
    // the trailing slash of its $id: it is registered under both.
    ajv.addMetaSchema(jsonSchemaMeta);
    ajv.addMetaSchema({ ...jsonSchemaMeta, $id: "https://meta.json-schema.tools" });
    const validate = ajv.compile(openrpcMeta);
    expect(validate(openrpc) ? [] : validate.errors).toEqual([]);
    // The check bites: a method without params, or with a member OpenRPC does not define, is refused.
    const broken = structuredClone(openrpc) as unknown as { methods: Record<string, unknown>[] };
    delete broken.methods[0]!["params"];
    expect(validate(broken)).toBe(false);
    expect(validate({ ...openrpc, methods: [{ ...openrpc.methods[0], parameters: [] }] })).toBe(false);
    expect(openrpc.openrpc).toBe("1.3.2");
    expect(openrpc.info.title).toBe("RCP/1");
  });

  it("describes every method and notification of the schema folder", () => {
    expect(openrpc.methods.map((entry) => entry.name)).toEqual(folder.methods.map((entry) => entry.method));
    expect(openrpc["x-rcp-notifications"].map((entry) => [entry.name, entry.direction])).toEqual(
      folder.notifications.map((entry) => [entry.method, entry.annotation.direction]),
    );
  });

  it("carries the x-rcp annotations, states streaming and its partial, and lists the runtime's errors", () => {
    const retrieve = method("retrieve");
    expect(retrieve["x-rcp"]).toMatchObject({ capability: "retrieve", streaming: true, strictParam: "strict" });
    expect(retrieve["x-rcp"]["clamps"]).toEqual([
      { param: "k", max: "retrieve.maxK" },
      { param: "rerank.topN", max: "rerank.maxCandidates" },
    ]);
    expect(retrieve["x-rcp-progress"]).toEqual({
      notification: "notifications/progress",
      partial: { $ref: "#/components/schemas/RetrievePartial" },
    });
    expect(retrieve.params.filter((param) => param.required).map((param) => param.name)).toEqual(["query", "k"]);
    expect(retrieve.errors.map((error) => error.$ref.split("/").at(-1))).toEqual([
      "InvalidParams",
      "NotInitialized",
      "CapabilityMissing",
      "OptionUnsupported",
      "Cancelled",
      "Timeout",
    ]);
    // ping runs before initialize, ungated, with no option: only malformed params are its own error.
    expect(method("ping").errors).toEqual([{ $ref: "#/components/errors/InvalidParams" }]);
    expect(method("ping")["x-rcp-progress"]).toBeUndefined();
    expect(openrpc.components.errors["OptionUnsupported"]?.code).toBe(-32005);
  });

  it("takes its example from the valid fixtures", () => {
    const fixture = JSON.parse(
      readFileSync(join(repoRoot, "test/schema/fixtures/valid/methods.retrieve.params/appendix-d.json"), "utf8"),
    ) as { value: Record<string, unknown> };
    expect(method("retrieve").examples?.[0]?.params).toEqual(
      Object.entries(fixture.value).map(([name, value]) => ({ name, value })),
    );
  });

  it("resolves every $ref to a component, with no file paths left", () => {
    const refs = [...generated("openrpc.json").matchAll(/"\$ref": "([^"]+)"/g)].map((match) => match[1]!);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) {
      const [, kind, name] = /^#\/components\/(schemas|errors)\/(\w+)$/.exec(ref) ?? [];
      expect({
        ref,
        resolves: kind !== undefined && Object.hasOwn(openrpc.components[kind as "schemas"], name!),
      }).toEqual({
        ref,
        resolves: true,
      });
    }
  });
});

describe("generated/docs/", () => {
  it("indexes every method, notification and error code in README.md", () => {
    const index = generated("docs/README.md");
    for (const entry of folder.methods) expect(index).toContain(`[\`${entry.method}\`](`);
    for (const entry of folder.notifications) expect(index).toContain(`| \`${entry.method}\` |`);
    for (const error of folder.errors) expect(index).toContain(`| ${error.code} | ${error.symbol} |`);
  });

  it("has one page per method with its gate, streaming, params, result, rules, errors and an example", () => {
    const page = generated("docs/retrieve.md");
    for (const heading of [
      "## Params: `RetrieveParams`",
      "## Result: `RetrieveResult`",
      "## Progress partial: `RetrievePartial`",
      "## Option gates",
      "## Clamps",
      "## Rules",
      "## Errors",
      "## Example",
    ])
      expect(page).toContain(`\n${heading}\n`);
    expect(page).toContain("| capability | `retrieve` |");
    expect(page).toContain("| before `initialize` | no |");
    expect(page).toContain("| `query` | `QueryInput` | yes |");
    expect(page).toContain("- `candidateK` >= `rerank.topN` >= `k`, for those present (§3.3)");
    expect(page).toContain('    "query": "transformer attention complexity",');
    expect(generated("docs/ping.md")).toContain("| before `initialize` | yes |");
    expect(generated("docs/index-add.md")).toContain("| capability | `index`, with `index.writable` |");
  });
});
