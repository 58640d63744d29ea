/**
 * The generated client extends BaseClient, so a schema method must not take the name of one of
 * its public members: rcp-gen reads them from the runtime's `baseClientMembers` (which the
 * compiler holds to BaseClient's keys) and refuses a method that would shadow one.
 */
import { afterAll, expect, it } from "vitest";
import { BaseClient } from "../../runtime/src/client/base-client.js";
import { baseClientMembers } from "../../runtime/src/codegen/symbols.js";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { generate } from "../../generator/src/plugin/run-plugins.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

afterAll(removeSchemaFolders);

it("baseClientMembers names every method and accessor of BaseClient", () => {
  const own = Object.getOwnPropertyNames(BaseClient.prototype).filter((name) => name !== "constructor");
  expect(own.length).toBeGreaterThan(0);
  expect(own.filter((name) => !baseClientMembers.includes(name))).toEqual([]);
});

it("refuses a schema method whose client method would shadow BaseClient's `tolerated`", async () => {
  const files = minimalSchemaFiles();
  files["methods/tolerated.json"] = {
    "x-rcp": { kind: "method", method: "tolerated", capability: null },
    $defs: { params: { type: "object" }, result: { type: "object" } },
  };
  const folder = loadSchemaFolder(writeSchemaFolder(files));
  await expect(generate(folder, { runtimeSpecifier: "@rcp-gen/runtime/codegen", command: "test" })).rejects.toThrow(
    'methods/tolerated.json: /x-rcp/method: client method tolerated() of "tolerated" clashes with BaseClient',
  );
});
