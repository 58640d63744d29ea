/**
 * The precompiled validators in generated/validators.ts: ajv's standalone code, which needs no
 * ajv at run time (its helpers come from the runtime package), compiles to plain Node ESM with
 * no `require(` and no schema compiled on import, and gives the same verdicts as ajv compiling
 * the schema in memory, over the schema fixture corpus (test/schema/fixtures).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { transformSync } from "esbuild";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import * as generatedValidators from "../../generated/validators.js";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { compileRef } from "../../generator/src/load/schema-ajv.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { generate } from "../../generator/src/plugin/run-plugins.js";
import { allShapes } from "../../generator/src/model/shapes.js";
import { loadFixtures } from "../schema/fixture-corpus.js";
import { repoRoot } from "./run-cli.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

afterAll(removeSchemaFolders);

const validatorsPath = join(repoRoot, "generated", "validators.ts");
/** What `tsc` made of it (`npm run build`), as a user's plain tsc build runs it. */
const compiledPath = join(repoRoot, "dist", "generated", "validators.js");

/** The built runtime, so that a module written outside the repository finds it. */
const builtRuntime = pathToFileURL(join(repoRoot, "runtime", "dist", "codegen", "server.js")).href;

/** validators.ts for the minimal folder after `change`, as a Node ESM file with its types stripped. */
async function compiledValidators(change: (files: ReturnType<typeof minimalSchemaFiles>) => void): Promise<string> {
  const files = minimalSchemaFiles();
  change(files);
  const folder = loadSchemaFolder(writeSchemaFolder(files));
  const source = (await generate(folder, { runtimeSpecifier: builtRuntime, command: "test" })).get("validators.ts")!;
  const modulePath = join(folder.dir, "validators.mjs");
  writeFileSync(modulePath, transformSync(source, { loader: "ts", format: "esm" }).code);
  return modulePath;
}

/** Runs `script` as a Node ESM module and returns what it printed as JSON. */
function runModule(script: string): unknown {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: repoRoot,
  });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout);
}

describe("generated/validators.ts, and what tsc compiles it to", () => {
  it("imports only the runtime's protocol entry (Validator, the Standard Schema wrapper, ajv's helpers) and its shapes' types, and carries no require(", () => {
    const source = readFileSync(validatorsPath, "utf8");
    expect(source).not.toContain("require(");
    const helpers = 'import { codePointLength, standardValidator } from "@rcp-gen/runtime/codegen-protocol";';
    expect(source.match(/^import .*$/gm)).toEqual([
      'import type { StandardValidator, Validator } from "@rcp-gen/runtime/codegen-protocol";',
      helpers,
      expect.stringMatching(/^import type \{ [\w, ]+ \} from "\.\/types\.js";$/),
    ]);
    expect(source.match(/^\/\/ @ts-nocheck/m)).not.toBeNull();
    for (const line of source.match(/^export .*$/gm) ?? [])
      expect(line).toMatch(
        /^export const \w+: (Validator = validate\d+|StandardValidator<\w+> = \/\* @__PURE__ \*\/ standardValidator\(validate\d+\));$/,
      );
    expect(readFileSync(compiledPath, "utf8").match(/^import .*$/gm)).toEqual([helpers]);
  });

  it("counts string lengths in code points, as JSON Schema does, with the runtime's helper", async () => {
    const modulePath = await compiledValidators((files) => {
      const hit = files["types/hit.json"] as { properties: { id: Record<string, unknown> } };
      hit.properties.id["maxLength"] = 2;
    });
    expect(readFileSync(modulePath, "utf8")).toMatch(
      /^import \{[^}]*\bcodePointLength\b[^}]*\} from "file:.*\/codegen\/protocol\.js";$/m,
    );
    const verdicts = runModule(`
      import { retrieveResult } from ${JSON.stringify(modulePath)};
      const verdict = (id) => retrieveResult({ hits: [{ id }] });
      console.log(JSON.stringify([verdict("ab"), verdict("abc"), verdict("\u{1F600}\u{1F600}"), verdict("\u{1F600}\u{1F600}x"), verdict("\uD800\uD800")]));`);
    // Two emoji are four UTF-16 units but two characters; lone surrogates count one each.
    expect(verdicts).toEqual([true, false, true, false, true]);
  });

  it("compares values deeply for uniqueItems and const with the runtime's helper, as ajv does", async () => {
    const modulePath = await compiledValidators((files) => {
      const hit = files["types/hit.json"] as { properties: Record<string, unknown> };
      hit.properties["tags"] = { type: "array", uniqueItems: true };
      hit.properties["origin"] = { const: { source: "web", path: ["a", 1] } };
    });
    expect(readFileSync(modulePath, "utf8")).toMatch(
      /^import \{[^}]*\bjsonEqual\b[^}]*\} from "file:.*\/codegen\/protocol\.js";$/m,
    );
    const verdicts = runModule(`
      import { retrieveResult } from ${JSON.stringify(modulePath)};
      const verdict = (hit) => retrieveResult({ hits: [{ id: "a", ...hit }] });
      console.log(JSON.stringify([
        verdict({ tags: [{ a: 1, b: [2] }, { b: [2], a: 2 }] }), verdict({ tags: [{ a: 1, b: [2] }, { b: [2], a: 1 }] }),
        verdict({ tags: [[1, 2], [2, 1]] }), verdict({ tags: [[1, 2], [1, 2]] }), verdict({ tags: [NaN, NaN] }),
        verdict({ origin: { path: ["a", 1], source: "web" } }), verdict({ origin: { source: "web", path: ["a", "1"] } }),
        verdict({ origin: { source: "web", path: ["a", 1], extra: true } })]));`);
    expect(verdicts).toEqual([true, false, true, false, false, true, false, false]);
  });

  it("applies unevaluatedProperties across allOf and $ref, for a folder that uses it", async () => {
    const modulePath = await compiledValidators((files) => {
      files["types/hit.json"] = {
        title: "Hit",
        type: "object",
        required: ["id"],
        allOf: [{ $ref: "#/$defs/scored" }],
        properties: { id: { type: "string" } },
        unevaluatedProperties: { type: "string" },
        $defs: { scored: { properties: { score: { type: "number" } } } },
      };
    });
    const verdicts = runModule(`
      import { retrieveResult } from ${JSON.stringify(modulePath)};
      const verdict = (hit) => retrieveResult({ hits: [{ id: "a", ...hit }] });
      console.log(JSON.stringify([verdict({ score: 0.5 }), verdict({ note: "x" }), verdict({ note: 1 }), verdict({ score: "high" })]));`);
    // score is evaluated by the $ref'd subschema, so only a non-string `note` is refused.
    expect(verdicts).toEqual([true, true, false, false]);
  });

  it("loads in node without a bundler and validates a frame and a batch (§4, §11)", () => {
    const verdicts = runModule(`
      import * as validators from ${JSON.stringify(compiledPath)};
      const request = { jsonrpc: "2.0", id: 1, method: "retrieve", params: { query: "q", k: 3 } };
      const badParams = { ...request, params: { query: "q", k: -1 } };
      console.log(JSON.stringify([validators.message(request), validators.message([request]), validators.message([]),
        validators.message(badParams), validators.retrieveParams({ query: "q", k: 3 })]));`);
    expect(verdicts).toEqual([true, true, false, false, true]);
  });
});

describe("generated/validators.ts, typed", () => {
  it("declares each validator as a type guard and a Standard Schema of its shape, so a checked value needs no cast", () => {
    const received: unknown = JSON.parse('{"hits":[{"id":"doc-1","score":0.5}]}');
    if (!generatedValidators.retrieveResult(received)) throw new Error("a valid retrieve result was refused");
    // Compiles only because the guard narrowed `received` to RetrieveResult.
    const scores: number[] = received.hits.map((hit) => hit.score);
    expect(scores).toEqual([0.5]);
    const module = readFileSync(join(repoRoot, "generated", "validators.ts"), "utf8");
    expect(module).toMatch(
      /^export const retrieveParams: StandardValidator<RetrieveParams> = \/\* @__PURE__ \*\/ standardValidator\(validate\d+\);$/m,
    );
    expect(module).toMatch(/^export const message: Validator = validate\d+;$/m);
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
