/** Compiles the schema a fixture names, through the loader (compileRef) or the root bundle. */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { LoadedSchemaFolder } from "../../generator/src/load/loader.js";
import { compileRef } from "../../generator/src/load/schema-ajv.js";
import { bundleSchema } from "../../generator/src/model/bundle.js";

export function fixtureValidator(folder: LoadedSchemaFolder): (ref: string) => ValidateFunction {
  // strict off: the bundle embeds every file, x-rcp annotations included.
  const bundle = new Ajv2020({ strict: false, allErrors: true }).compile(bundleSchema(folder));
  return (ref) => (ref === "bundle" ? bundle : compileRef(folder, ref));
}
