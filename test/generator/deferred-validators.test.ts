/**
 * The folder's validators are made live on their first call (load/deferred-validators.ts), and
 * the bundle settles from a params schema's own keywords whether a request may omit `params`
 * (model/bundle.ts). Both must give exactly what ajv and JSON Schema give.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { bundleSchema, compileRef, loadSchemaFolder } from "../../generator/src/load/loader.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

afterAll(removeSchemaFolders);

/** The minimal folder plus methods x-test/<name> with the given params schemas, and two shared types. */
function folderWith(params: Record<string, object>) {
  const files = minimalSchemaFiles();
  // Which members it evaluates is known only when it runs: which branch of anyOf passed.
  files["types/choice.json"] = {
    title: "Choice",
    type: "object",
    properties: { left: { type: "string" } },
    anyOf: [
      { required: ["right"], properties: { right: { type: "string" } } },
      { required: ["middle"], properties: { middle: { type: "number" } } },
    ],
  };
  files["types/tree.json"] = {
    title: "Tree",
    type: "object",
    required: ["id"],
    properties: { id: { type: "string" }, children: { type: "array", items: { $ref: "tree.json" } } },
  };
  for (const [name, schema] of Object.entries(params))
    files[`methods/x-test-${name}.json`] = {
      "x-rcp": { kind: "method", method: `x-test/${name}`, capability: null, beforeInitialize: false },
      $defs: { params: schema, result: { type: "object" } },
    };
  return loadSchemaFolder(writeSchemaFolder(files));
}

describe("a folder's validators, live on first call", () => {
  const folder = folderWith({
    "with-choice": { type: "object", required: ["choice"], properties: { choice: { $ref: "../types/choice.json" } } },
    "choice-and-flags": { $ref: "../types/choice.json", unevaluatedProperties: { type: "boolean" } },
    "with-tree": { type: "object", properties: { tree: { $ref: "../types/tree.json" } } },
  });

  it("report the errors of a function they call, with its path", () => {
    const validate = compileRef(folder, "methods/x-test-with-choice.json#/$defs/params");
    expect(validate({ choice: { left: 1, right: "b" } })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/choice/left", keyword: "type" });
    expect(validate({ choice: { left: "a", right: "b" } })).toBe(true);
    expect(validate.errors).toBeNull();
  });

  it("see which members a function they call evaluated as it ran, for unevaluatedProperties", () => {
    const validate = compileRef(folder, "methods/x-test-choice-and-flags.json#/$defs/params");
    expect(validate({ left: "a", right: "b", flag: true })).toBe(true);
    expect(validate({ left: "a", right: "b", flag: 1 })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: "/flag", keyword: "type" });
    // Only the middle branch passed, so `right` was not evaluated: it must be a boolean here.
    expect(validate({ left: "a", middle: 2, right: 5 })).toBe(false);
    expect(validate({ left: "a", middle: 2, right: true })).toBe(true);
  });

  it("follow recursion to any depth, and agree with ajv compiling the same schema eagerly", () => {
    const validate = compileRef(folder, "methods/x-test-with-tree.json#/$defs/params");
    const eager = new Ajv2020({ strict: false }).compile(bundleSchema(folder));
    const deep = { id: "a", children: [{ id: "b", children: [{ id: "c" }, { children: [] }] }] };
    expect(validate({ tree: deep })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe("/tree/children/0/children/1");
    const request = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "x-test/with-tree", params });
    expect(eager(request({ tree: deep }))).toBe(false);
    deep.children[0]!.children[1] = { id: "d" };
    expect(validate({ tree: deep })).toBe(true);
    expect(eager(request({ tree: deep }))).toBe(true);
  });
});

describe("a request without params (§4.1: absent params are read as {})", () => {
  const folder = folderWith({
    required: { type: "object", required: ["q"], properties: { q: { type: "string" } } },
    "not-an-object": { type: ["array", "null"] },
    "at-least-one": { type: "object", minProperties: 1 },
    "via-ref": { $ref: "../types/tree.json" },
    open: { type: "object", properties: { q: { type: "string" } } },
    anything: {},
  });
  const validate = new Ajv2020({ strict: false }).compile(bundleSchema(folder));
  const accepts = (name: string) => validate({ jsonrpc: "2.0", id: 1, method: `x-test/${name}` });

  it("is refused when the params schema requires a member or another type, by its keywords alone", () => {
    expect(accepts("required")).toBe(false);
    expect(accepts("not-an-object")).toBe(false);
  });

  it("is judged by running the params schema otherwise", () => {
    expect(accepts("at-least-one")).toBe(false);
    expect(accepts("via-ref")).toBe(false);
    expect(accepts("open")).toBe(true);
    expect(accepts("anything")).toBe(true);
  });
});
