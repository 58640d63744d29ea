/** The ajv configuration of a schema folder (loader.ts folderAjv): strict about typos, open about everything §4.6 leaves open. */
import { Ajv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import type { LoadedSchemaFolder } from "./loader.js";
import { walkSchema } from "./schema-walk.js";

export function newFolderAjv(folder: LoadedSchemaFolder, extra: Options): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    // Protocol objects are deliberately open and loosely typed (§4.6); only typos are errors.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    // A named vendor capability (`x-acme`) beside the open `^x-` pattern is intended (§6.2).
    allowMatchingProperties: true,
    // `format` is an annotation in 2020-12; the protocol does not rely on format checks.
    validateFormats: false,
    allErrors: false,
    // Every file already passed the 2020-12 meta-schema in the loader (meta-check.ts); checking
    // again here would compile that meta-schema a second time in each run.
    validateSchema: false,
    ...extra,
  });
  for (const keyword of annotationKeywords(folder)) ajv.addKeyword({ keyword });
  for (const document of folder.files.values()) ajv.addSchema(document);
  shareResolvedRefs(ajv);
  return ajv;
}

/** What ajv keeps of a compiled schema, as far as sharing needs. */
interface CompiledSchema {
  validate?: ValidateFunction;
}

/** Per folder ajv: every `$ref` resolved so far, by absolute URI. */
const resolvedRefs = new WeakMap<Ajv2020, Record<string, CompiledSchema | undefined>>();

/**
 * ajv remembers a resolved `$ref` per referring file, so a subschema that N files point at
 * (`../meta.json#/$defs/meta`) would compile to N identical functions. Its keys are absolute
 * URIs, which mean the same target from any file, so one table serves the whole folder.
 */
function shareResolvedRefs(ajv: Ajv2020): void {
  const resolved = {};
  resolvedRefs.set(ajv, resolved);
  for (const root of Object.values(ajv.schemas)) if (root) (root as { refs: object }).refs = resolved;
}

/**
 * The validator of the schema at an absolute URI (`<file $id>#/$defs/params`, or a file's `$id`),
 * compiled once whether it is asked for here first or reached by a `$ref` first: ajv keeps what
 * it is asked for apart from what `$ref`s resolved to.
 */
export function validatorAt(ajv: Ajv2020, uri: string): ValidateFunction | undefined {
  const resolved = resolvedRefs.get(ajv) ?? {};
  const asked = ajv.refs as Record<string, CompiledSchema | string | undefined>;
  const reached = resolved[uri];
  if (reached?.validate && asked[uri] === undefined) asked[uri] = reached;
  const validate = ajv.getSchema(uri);
  const compiled = asked[uri];
  if (typeof compiled === "object") resolved[uri] ??= compiled;
  return validate;
}

/** Every `x-` annotation used in the folder, so strict mode accepts them. */
function annotationKeywords(folder: LoadedSchemaFolder): string[] {
  const keywords = new Set<string>();
  for (const document of folder.files.values())
    walkSchema(document, (schema) => {
      if (typeof schema === "object" && schema !== null)
        for (const key of Object.keys(schema)) if (key.startsWith("x-")) keywords.add(key);
    });
  return [...keywords].sort();
}
