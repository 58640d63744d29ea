/**
 * Preloaded (`node --import`) into a server to count schema compilations: every ajv compile path
 * (compile, getSchema, validate with a schema, compileAsync) goes through _compileSchemaEnv on the
 * core class that Ajv and Ajv2020 share. The count is written to stderr when the process exits.
 */
import AjvCore from "ajv/dist/core.js";
import { COMPILE_COUNT_PREFIX } from "./probe.js";

type CompilingPrototype = { _compileSchemaEnv: (this: unknown, ...args: unknown[]) => unknown };
// ajv is CommonJS: under ESM the default import is module.exports, whose `default` is the class.
const coreModule = AjvCore as unknown as {
  default?: { prototype: CompilingPrototype };
  prototype?: CompilingPrototype;
};
const prototype = (coreModule.default?.prototype ?? coreModule.prototype)!;
const compileSchemaEnv = prototype._compileSchemaEnv;
let compiles = 0;
prototype._compileSchemaEnv = function countedCompile(this: unknown, ...args: unknown[]) {
  compiles += 1;
  return compileSchemaEnv.apply(this, args);
};
process.on("exit", () => process.stderr.write(`${COMPILE_COUNT_PREFIX}${compiles}\n`));
