/**
 * Shapes that a validator checks identically compile to one function in validators.ts
 * (generator/src/model/shape-identity.ts): vendor methods that repeat a method's params, a
 * result written like its params. Annotations do not make shapes different; any keyword a
 * validator reads does, and so does what a `$ref` points to.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder, type FolderFiles } from "./schema-fixture.js";
import { scratchFolder } from "./typecheck.js";
import { validatorExports } from "./validator-exports.js";

const out = join(scratchFolder("shape-identity-"), "generated");
afterAll(removeSchemaFolders);

/** A vendor method whose params use a `mode` defined in its own file. */
function vendorMethod(name: string, description: string, minimumK: number): object {
  return {
    description,
    "x-rcp": { kind: "method", method: `x-acme/${name}`, capability: "retrieve" },
    $defs: {
      mode: { enum: ["dense", "sparse"], description: `${name}'s modes` },
      params: {
        type: "object",
        required: ["query"],
        properties: {
          query: { type: "string", description: description },
          k: { type: "integer", minimum: minimumK },
          mode: { $ref: "#/$defs/mode" },
          hit: { $ref: "../types/hit.json" },
          _meta: { $ref: "../meta.json#/$defs/meta" },
        },
      },
      result: { type: "object" },
    },
  };
}

let code = "";
/** validators.ts export -> the function it is. */
const functionOf = new Map<string, string>();
let validators: Record<string, (value: unknown) => boolean>;

beforeAll(async () => {
  const files: FolderFiles = {
    ...minimalSchemaFiles(),
    "methods/x-acme-a.json": vendorMethod("a", "First.", 0),
    "methods/x-acme-b.json": vendorMethod("b", "Second, described otherwise.", 0),
    "methods/x-acme-c.json": vendorMethod("c", "Third, with a different minimum.", 1),
  };
  const result = runCli(["--schema", writeSchemaFolder(files), "--out", out, "--targets", "validators", "--quiet"]);
  expect(result.stderr).toBe("");
  code = readFileSync(join(out, "validators.ts"), "utf8");
  for (const [name, validate] of validatorExports(code)) functionOf.set(name, validate);
  validators = (await import(pathToFileURL(join(out, "validators.ts")).href)) as typeof validators;
});

describe("validators.ts", () => {
  it("exports shapes that differ only in annotations as one function, compiled once", () => {
    expect(functionOf.get("xAcmeBParams")).toBe(functionOf.get("xAcmeAParams"));
    expect(functionOf.get("pingResult")).toBe(functionOf.get("pingParams"));
    const declared = [...code.matchAll(/^function (validate\d+)\(/gm)].map(([, name]) => name);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it("compiles a subschema that several files point into once", () => {
    // retrieve.json and both distinct vendor methods refer to ../meta.json#/$defs/meta; ajv on
    // its own compiles such a target once per referring file (schema-ajv.ts).
    const checksProgressToken = code
      .split(/\n(?=function validate\d+\()/)
      .filter((part) => part.startsWith("function ") && part.includes('schemaPath:"#/properties/progressToken/type"'));
    expect(checksProgressToken).toHaveLength(1);
    expect(validators["xAcmeCParams"]!({ query: "q", _meta: { progressToken: 1.5 } })).toBe(false);
    expect(validators["retrieveResult"]!({ hits: [], _meta: { progressToken: [] } })).toBe(false);
  });

  it("keeps apart shapes that differ in a keyword a validator reads", () => {
    expect(functionOf.get("xAcmeCParams")).not.toBe(functionOf.get("xAcmeAParams"));
    expect(functionOf.get("xAcmeAParams")).not.toBe(functionOf.get("retrieveParams"));
    expect(validators["xAcmeAParams"]!({ query: "q", k: 0 })).toBe(true);
    expect(validators["xAcmeCParams"]!({ query: "q", k: 0 })).toBe(false);
  });

  it("validates a shared shape by its own rules, $refs included", () => {
    const params = { query: "q", mode: "dense", hit: { id: "h1" } };
    for (const name of ["xAcmeAParams", "xAcmeBParams"]) {
      expect(validators[name]!(params)).toBe(true);
      expect(validators[name]!({ ...params, mode: "hybrid" })).toBe(false);
      expect(validators[name]!({ ...params, hit: { score: 1 } })).toBe(false);
    }
  });

  it("binds each method of the whole-frame validator to the shared function", () => {
    const frame = (method: string, params: object) => ({ jsonrpc: "2.0", id: 1, method, params });
    expect(validators["message"]!(frame("x-acme/b", { query: "q", k: 0 }))).toBe(true);
    expect(validators["message"]!(frame("x-acme/b", { k: 0 }))).toBe(false);
    expect(validators["message"]!(frame("x-acme/c", { query: "q", k: 0 }))).toBe(false);
  });
});
