/**
 * The precompiled validators in generated/validators.js: plain Node ESM with no `require(`
 * and no schema compiled on import, and the same verdicts as ajv compiling the schema in
 * memory, over the schema fixture corpus (test/schema/fixtures).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as generatedValidators from "../../generated/validators.js";
import { compileRef, loadSchemaFolder } from "../../generator/src/load/loader.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { generate } from "../../generator/src/emit/generate.js";
import { allShapes } from "../../generator/src/model/shapes.js";
import { loadFixtures } from "../schema/fixture-corpus.js";
import { repoRoot } from "./run-cli.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

afterAll(removeSchemaFolders);

const validatorsPath = join(repoRoot, "generated", "validators.js");

describe("generated/validators.js under plain Node ESM", () => {
  it("imports nothing but ajv's small runtime helpers, as ESM with .js specifiers", () => {
    const source = readFileSync(validatorsPath, "utf8");
    expect(source).not.toContain("require(");
    for (const line of source.match(/^import .*$/gm) ?? [])
      expect(line).toMatch(/^import \w+ from "ajv\/dist\/runtime\/\w+\.js";$/);
  });

  it("counts string lengths in code points, as JSON Schema does, with its inlined helper", async () => {
    const files = minimalSchemaFiles();
    const hit = files["types/hit.json"] as { properties: { id: Record<string, unknown> } };
    hit.properties.id["maxLength"] = 2;
    const folder = loadSchemaFolder(writeSchemaFolder(files));
    const validatorsJs = (await generate(folder, { runtimeSpecifier: "rcp-gen/codegen", command: "test" })).get(
      "validators.js",
    )!;
    expect(validatorsJs).toContain("function ajvRuntime_ucs2length(");
    const modulePath = join(folder.dir, "validators.js");
    writeFileSync(modulePath, validatorsJs);
    const script = `
      import { retrieveResult } from ${JSON.stringify(modulePath)};
      const verdict = (id) => retrieveResult({ hits: [{ id }] });
      console.log(JSON.stringify([verdict("ab"), verdict("abc"), verdict("\u{1F600}\u{1F600}"), verdict("\u{1F600}\u{1F600}x"), verdict("\uD800\uD800")]));`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    // Two emoji are four UTF-16 units but two characters; lone surrogates count one each.
    expect(JSON.parse(result.stdout)).toEqual([true, false, true, false, true]);
  });

  it("loads in node without a bundler and validates a frame and a batch (§4, §11)", () => {
    const script = `
      import * as validators from ${JSON.stringify(validatorsPath)};
      const request = { jsonrpc: "2.0", id: 1, method: "retrieve", params: { query: "q", k: 3 } };
      const badParams = { ...request, params: { query: "q", k: -1 } };
      const tooLong = { query: "q", k: 3, mode: "x".repeat(10) };
      console.log(JSON.stringify([validators.message(request), validators.message([request]), validators.message([]),
        validators.message(badParams), validators.retrieveParams({ query: "q", k: 3 })]));`;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      cwd: repoRoot,
    });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([true, true, false, false, true]);
  });
});

describe("generated/validators.d.ts", () => {
  it("declares each validator as a type guard for its shape, so a checked value needs no cast", () => {
    const received: unknown = JSON.parse('{"hits":[{"id":"doc-1","score":0.5}]}');
    if (!generatedValidators.retrieveResult(received)) throw new Error("a valid retrieve result was refused");
    // Compiles only because the guard narrowed `received` to RetrieveResult.
    const scores: number[] = received.hits.map((hit) => hit.score);
    expect(scores).toEqual([0.5]);
    const declarations = readFileSync(join(repoRoot, "generated", "validators.d.ts"), "utf8");
    expect(declarations).toContain("export declare const retrieveParams: Validator<RetrieveParams>;");
    expect(declarations).toContain("export declare const message: Validator;");
  });
});

describe("precompiled validators agree with the schema compiled in memory", () => {
  const folder = loadSchemaFolder(join(repoRoot, "schema"));
  const exportOfRef = new Map<string, string>([["bundle", "message"]]);
  for (const shape of allShapes(folder))
    if (shape.validatorName)
      exportOfRef.set(shape.pointer === "" ? shape.file : `${shape.file}#${shape.pointer}`, shape.validatorName);
  const validators = generatedValidators as unknown as Record<string, (data: unknown) => boolean>;
  const fixtures = [...loadFixtures("valid"), ...loadFixtures("invalid")].filter((fixture) =>
    exportOfRef.has(fixture.ref),
  );

  it("covers every shape the corpus has fixtures for", () => {
    expect(fixtures.length).toBeGreaterThan(50);
  });

  it.each(fixtures.map((fixture) => [`${fixture.spec} ${fixture.name}`, fixture] as const))("%s", (_title, fixture) => {
    const validate = validators[exportOfRef.get(fixture.ref) ?? ""];
    expect(validate?.(fixture.value)).toBe(fixture.keyword === undefined);
    if (fixture.ref !== "bundle")
      expect(validate?.(fixture.value)).toBe(compileRef(folder, fixture.ref)(fixture.value));
  });
});

describe("generated/rcp.schema.json, the one-file root schema", () => {
  it("validates frames with nothing but ajv and that file (§4, §11, Appendix D)", () => {
    const bundle = JSON.parse(readFileSync(join(repoRoot, "generated", "rcp.schema.json"), "utf8")) as object;
    const validate = new Ajv2020({ strict: false }).compile(bundle);
    const request = {
      jsonrpc: "2.0",
      id: 2,
      method: "retrieve",
      params: { query: "transformer attention complexity", k: 5, mode: "hybrid", _meta: { progressToken: "t2" } },
    };
    const progress = {
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "t2", progress: 0.4, message: "recall" },
    };
    expect(validate(request)).toBe(true);
    expect(validate([request, progress])).toBe(true);
    expect(validate({ ...request, params: { ...request.params, k: -1 } })).toBe(false);
    expect(validate({ ...progress, params: { progress: 0.4 } })).toBe(false);
    expect(validate([])).toBe(false);
  });
});
