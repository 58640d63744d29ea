/**
 * Scenario 5's measurement, in a process of its own: the generated standalone validators of
 * retrieve params and result against ajv compiling the same schemas at run time (same folder,
 * same ajv options, via the generator's loader). Per-call cost in ns, alternating A B A B, and
 * the one-off compile cost the standalone code avoids. Prints one JSON line.
 */
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadSchemaFolder } from "../../../generator/src/load/loader.js";
import { compileRef, folderAjv } from "../../../generator/src/load/schema-ajv.js";
import { shapeValidatorName } from "../../../generator/src/model/naming.js";
import type { Validator } from "../../../runtime/src/protocol/descriptor.js";
import { buildRetrieveResult, RETRIEVE_PARAMS } from "../fixture.js";
import { median } from "../stats.js";
import { generatedValidators, nsPerCall } from "./validator-timing.js";

export interface ValidationMicroResult {
  standaloneParamsNs: number;
  standaloneResultNs: number;
  runtimeParamsNs: number;
  runtimeResultNs: number;
  runtimeCompileMs: number;
  /** ajv at run time with the generator's emit option `inlineRefs: false`, to tell code shape from standalone-ness. */
  sameOptionsParamsNs: number;
  sameOptionsResultNs: number;
  sameOptionsCompileMs: number;
}

const calls = Number(process.argv[2] ?? 100_000);
const repoRoot = new URL("../../../../", import.meta.url);

function generatedValidator(role: "Params" | "Result"): Validator {
  const validator = generatedValidators[shapeValidatorName("retrieve", role)];
  if (!validator) throw new Error(`generated/validators.js has no ${shapeValidatorName("retrieve", role)}`);
  return validator;
}

const compileStarted = performance.now();
const folder = loadSchemaFolder(fileURLToPath(new URL("schema", repoRoot)));
const runtimeParams = compileRef(folder, "methods/retrieve.json#/$defs/params");
const runtimeResult = compileRef(folder, "methods/retrieve.json#/$defs/result");
const runtimeCompileMs = performance.now() - compileStarted;
// A second copy of the folder, so that its ajv compiles afresh.
const sameOptionsFolder = loadSchemaFolder(fileURLToPath(new URL("schema", repoRoot)));
const sameOptionsStarted = performance.now();
const sameOptions = folderAjv(sameOptionsFolder);
function sameOptionsValidator(pointer: string): Validator {
  const validator = sameOptions.getSchema(`${folder.idOf("methods/retrieve.json")}#${pointer}`);
  if (!validator) throw new Error(`no schema at methods/retrieve.json#${pointer}`);
  return validator;
}
const sameOptionsParams = sameOptionsValidator("/$defs/params");
const sameOptionsResult = sameOptionsValidator("/$defs/result");
// The folder was loaded before the clock started: this is compilation alone.
const sameOptionsCompileMs = performance.now() - sameOptionsStarted;

const result = buildRetrieveResult();
const contenders: Array<[keyof ValidationMicroResult, Validator, unknown]> = [
  ["standaloneParamsNs", generatedValidator("Params"), RETRIEVE_PARAMS],
  ["runtimeParamsNs", runtimeParams, RETRIEVE_PARAMS],
  ["sameOptionsParamsNs", sameOptionsParams, RETRIEVE_PARAMS],
  ["standaloneResultNs", generatedValidator("Result"), result],
  ["runtimeResultNs", runtimeResult, result],
  ["sameOptionsResultNs", sameOptionsResult, result],
];
const samples = new Map<string, number[]>();
for (let round = 0; round < 5; round += 1) {
  for (const [name, validate, data] of contenders)
    samples.set(name, [...(samples.get(name) ?? []), nsPerCall(calls, validate, data)]);
}
const perCall = (name: keyof ValidationMicroResult): number => median(samples.get(name) ?? []);
const output: ValidationMicroResult = {
  standaloneParamsNs: perCall("standaloneParamsNs"),
  standaloneResultNs: perCall("standaloneResultNs"),
  runtimeParamsNs: perCall("runtimeParamsNs"),
  runtimeResultNs: perCall("runtimeResultNs"),
  runtimeCompileMs,
  sameOptionsParamsNs: perCall("sameOptionsParamsNs"),
  sameOptionsResultNs: perCall("sameOptionsResultNs"),
  sameOptionsCompileMs,
};
process.stdout.write(JSON.stringify(output) + "\n");
