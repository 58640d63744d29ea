/**
 * The precompiled validators in generated/validators.js: plain Node ESM with no `require(`
 * and no schema compiled on import, and the same verdicts as ajv compiling the schema in
 * memory, over the schema fixture corpus (test/schema/fixtures).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as generatedValidators from "../../generated/validators.js";
import { compileRef, loadSchemaFolder } from "../../generator/loader.js";
import { allShapes } from "../../generator/shapes.js";
import { loadFixtures } from "../schema/fixture-corpus.js";
import { repoRoot } from "./run-cli.js";

const validatorsPath = join(repoRoot, "generated", "validators.js");

describe("generated/validators.js under plain Node ESM", () => {
  it("imports only ajv's small runtime helpers, as ESM with .js specifiers", () => {
    const imports = readFileSync(validatorsPath, "utf8").match(/^import .*$/gm) ?? [];
    expect(imports.length).toBeGreaterThan(0);
    for (const line of imports) expect(line).toMatch(/^import \w+ from "ajv\/dist\/runtime\/\w+\.js";$/);
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
