/**
 * The tools of generated/mcp.ts: one per client-callable method of the schema (no lifecycle
 * method but info, no notification), named as MCP allows, each schema one self-contained
 * document the SDK's fromJsonSchema takes as it is, and the same list `rcp-gen mcp` builds
 * live from the folder.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { fromJsonSchema } from "@modelcontextprotocol/server";
import { mcpTools } from "../../generated/mcp.js";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { mcpToolsOf } from "../../generator/src/targets/mcp-tools.js";
import { buildModel } from "../../generator/src/model/model.js";
import { repoRoot } from "../generator/run-cli.js";

const model = buildModel(loadSchemaFolder(join(repoRoot, "schema")));

it("has one tool per method but initialize, ping and shutdown, named after its wire name", () => {
  const methods = model.methods
    .map((method) => method.method)
    .filter((name) => !["initialize", "ping", "shutdown"].includes(name));
  expect(mcpTools.map((tool) => tool.method)).toEqual(methods);
  for (const tool of mcpTools) {
    expect(tool.name).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(tool.name).toBe(tool.method.replaceAll("/", "_"));
  }
});

it("is what rcp-gen mcp builds live from the schema folder", () => {
  expect(JSON.parse(JSON.stringify(mcpToolsOf(model)))).toEqual(mcpTools);
});

it("bundles each schema into one document: every $ref points into its own $defs, and params lose _meta", () => {
  for (const tool of mcpTools)
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      expect(schema.type, tool.name).toBe("object");
      const defs = (schema.$defs ?? {}) as Record<string, unknown>;
      for (const [, ref] of JSON.stringify(schema).matchAll(/"\$ref":"([^"]*)"/g)) {
        expect(ref, tool.name).toMatch(/^#\/\$defs\/[A-Za-z0-9]+$/);
        expect(defs, `${tool.name} ${ref}`).toHaveProperty(ref!.slice("#/$defs/".length));
      }
      expect(
        () => fromJsonSchema(schema as Record<string, unknown>)["~standard"].validate({}),
        tool.name,
      ).not.toThrow();
    }
  for (const tool of mcpTools) expect(tool.inputSchema.properties, tool.name).not.toHaveProperty("_meta");
});

it("takes the annotations from x-rcp writes, destructive and idempotent", () => {
  const annotations = Object.fromEntries(mcpTools.map((tool) => [tool.name, tool.annotations]));
  expect(annotations.retrieve).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
  expect(annotations.index_add).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  expect(annotations.index_delete).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  expect(annotations.feedback).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  expect(annotations.memory_build).toMatchObject({ readOnlyHint: false, destructiveHint: false });
});

it("refuses a schema whose method is destructive without writing", () => {
  const copy = mkdtempSync(join(tmpdir(), "mcp-destructive-"));
  try {
    cpSync(join(repoRoot, "schema"), copy, { recursive: true });
    const file = join(copy, "methods/index-delete.json");
    const document = JSON.parse(readFileSync(file, "utf8")) as { "x-rcp": { writes?: boolean } };
    delete document["x-rcp"].writes;
    writeFileSync(file, JSON.stringify(document));
    expect(() => loadSchemaFolder(copy)).toThrow(
      /methods\/index-delete\.json.*a destructive method writes: set `writes: true` too/s,
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
