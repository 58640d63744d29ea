/**
 * The one ajv 2020-12 instance of a loaded folder, holding every file under its assigned `$id`:
 * strict about typos, open about everything §4.6 leaves open. Every schema a run compiles
 * (the bundle's params checks, validators.ts, conform's validators) is compiled here, once, and
 * a schema ajv refuses is reported with the file and pointer ajv names.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { type LoadedSchemaFolder, schemaIdBase } from "./loaded-folder.js";
import { SchemaFolderError, SchemaProblems } from "./schema-folder-error.js";
import { walkSchema } from "./schema-walk.js";

const folderAjvs = new WeakMap<LoadedSchemaFolder, Ajv2020>();

/** The folder's ajv, set up to give standalone code (validators.ts is printed from the functions it compiled). */
export function folderAjv(folder: LoadedSchemaFolder): Ajv2020 {
  let ajv = folderAjvs.get(folder);
  if (!ajv) {
    ajv = new Ajv2020({
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
      // Every file already passed the 2020-12 meta-schema in the loader (meta-check.ts).
      validateSchema: false,
      code: { source: true, esm: true, lines: true },
      // A schema that several others refer to stays one function instead of a copy in each.
      inlineRefs: false,
    });
    const keywords = keywordsUsed(folder);
    // Ajv2020 turns `unevaluated` on whatever it is given (ajv reads it only when compiling): every
    // function then tracks what it evaluated and carries it in a module-level
    // `validateN.evaluated = ...` in validators.ts, a side effect that keeps a bundler from dropping
    // the validators nobody calls. Only unevaluatedProperties/Items read it; a folder without them skips it.
    ajv.opts.unevaluated = keywords.has("unevaluatedProperties") || keywords.has("unevaluatedItems");
    for (const keyword of keywords) if (keyword.startsWith("x-")) ajv.addKeyword({ keyword });
    for (const document of folder.files.values()) ajv.addSchema(document);
    shareResolvedRefs(ajv);
    folderAjvs.set(folder, ajv);
  }
  return ajv;
}

/**
 * Compiles (once per folder) the schema at `ref`, e.g. "methods/retrieve.json#/$defs/params". A
 * schema ajv refuses (strict mode) is reported with the file and pointer ajv names, whichever
 * target compiled it first.
 */
export function compileRef(folder: LoadedSchemaFolder, ref: string): ValidateFunction {
  const [file = "", pointer = ""] = ref.split("#");
  const validate = folder.files.has(file)
    ? located(file, pointer, () => validatorAt(folderAjv(folder), absoluteRef(folder, ref)))
    : undefined;
  if (!validate) throw new SchemaFolderError(file, pointer, `no schema at ${ref}`);
  return validate;
}

/** Compiles every schema of `refs` (compileRef), reporting every one ajv refuses, not only the first. */
export function compileAll(folder: LoadedSchemaFolder, refs: Iterable<string>): void {
  const problems = new SchemaProblems();
  for (const ref of refs) problems.attempt(() => compileRef(folder, ref));
  problems.throwIfAny();
}

/**
 * `methods/retrieve.json#/$defs/params` (or a whole file's path) as ajv knows it: by the file's
 * assigned `$id`. A whole file is its `$id` alone: ajv takes `<$id>#` for another schema.
 */
export function absoluteRef(folder: LoadedSchemaFolder, ref: string): string {
  const [file = "", pointer = ""] = ref.split("#");
  return pointer === "" ? folder.idOf(file) : `${folder.idOf(file)}#${pointer}`;
}

function located<T>(file: string, pointer: string, compile: () => T): T {
  try {
    return compile();
  } catch (error) {
    const message = (error as Error).message;
    const named = new RegExp(`${schemaIdBase.replaceAll(".", "\\.")}([^#"]+)#?([^"\\s]*)`).exec(message);
    const [inFile, at] = named ? [named[1] ?? file, named[2] ?? ""] : [file, pointer];
    throw new SchemaFolderError(inFile, decodeURIComponent(at), message.replaceAll(schemaIdBase, ""));
  }
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
function validatorAt(ajv: Ajv2020, uri: string): ValidateFunction | undefined {
  const resolved = resolvedRefs.get(ajv) ?? {};
  const asked = ajv.refs as Record<string, CompiledSchema | string | undefined>;
  const reached = resolved[uri];
  if (reached?.validate && asked[uri] === undefined) asked[uri] = reached;
  const validate = ajv.getSchema(uri);
  const compiled = asked[uri];
  if (typeof compiled === "object") resolved[uri] ??= compiled;
  return validate;
}

/** Every keyword used in the folder's schemas (`x-` annotations among them, which strict mode must be told of). */
function keywordsUsed(folder: LoadedSchemaFolder): Set<string> {
  const keywords = new Set<string>();
  for (const document of folder.files.values())
    walkSchema(document, (schema) => {
      if (typeof schema === "object" && schema !== null) for (const key of Object.keys(schema)) keywords.add(key);
    });
  return keywords;
}
