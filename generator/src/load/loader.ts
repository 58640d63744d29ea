/**
 * Loads a schema folder (docs/schema.md): reads and checks every file, assigns
 * `$id`s from file paths, resolves every `$ref`, and exposes the method, notification and
 * error annotations the generator and the runtime are built from.
 */
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import { canonicalJson } from "./canonical-json.js";
import { checkCrossFile } from "./cross-file-check.js";
import { requiredFiles } from "./folder-layout.js";
import { checkSchemaFile } from "./meta-check.js";
import type {
  CapabilitiesFile,
  CheckedSchemaFile,
  ErrorCodeEntry,
  JsonSchema,
  MetaFile,
  MethodAnnotation,
  MethodFile,
  NotificationAnnotation,
  NotificationFile,
  ProtocolFile,
  TypeFile,
} from "./meta-schema/schema-files.js";
import { readSchemaFiles } from "./read-folder.js";
import { checkRefs } from "./refs.js";
import { deferredValidators } from "./deferred-validators.js";
import { newFolderAjv, validatorAt } from "./schema-ajv.js";
import { SchemaFolderError, SchemaProblems } from "./schema-folder-error.js";

export { SchemaFolderError, type SchemaProblem } from "./schema-folder-error.js";
export { bundleSchema } from "../model/bundle.js";

export interface LoadedMethod {
  readonly file: string;
  /** The wire name. */
  readonly method: string;
  /** The x-rcp block. */
  readonly annotation: MethodAnnotation;
  readonly document: MethodFile;
}

export interface LoadedNotification {
  readonly file: string;
  readonly method: string;
  readonly annotation: NotificationAnnotation;
  readonly document: NotificationFile;
}

/** A shared type (types/*.json). */
export interface LoadedType {
  readonly file: string;
  readonly document: TypeFile;
}

export type LoadedError = ErrorCodeEntry;

/** A schema folder that passed every check: its documents, methods, notifications and hashes. */
export interface LoadedSchemaFolder {
  /** Absolute path. */
  readonly dir: string;
  /** sha256 hex over the sorted (relative path, canonical JSON) of every file. */
  readonly hash: string;
  /** Relative posix path -> sha256 hex of the file's canonical JSON. */
  readonly fileHashes: ReadonlyMap<string, string>;
  /** Relative posix path -> parsed JSON document (with its assigned $id). */
  readonly files: ReadonlyMap<string, JsonSchema>;
  readonly protocol: ProtocolFile;
  readonly meta: MetaFile;
  readonly capabilities: CapabilitiesFile;
  /** Sorted by path. */
  readonly types: readonly LoadedType[];
  /** Sorted by wire name. */
  readonly methods: readonly LoadedMethod[];
  readonly notifications: readonly LoadedNotification[];
  readonly errors: readonly LoadedError[];
  /** The $id the loader assigned to that file. */
  idOf(relativePath: string): string;
}

/** Base of every assigned `$id`; `.invalid` never resolves, so nothing is ever fetched. */
export const schemaIdBase = "https://rcp-gen.invalid/schema/";

/**
 * Reports every problem it finds, not only the first (a SchemaFolderError lists them all), in
 * two stages: each file on its own, its $refs, and the required files; then, once every file
 * is sound, the checks across files, which rely on each file's shape.
 */
export function loadSchemaFolder(dir: string): LoadedSchemaFolder {
  const absolute = resolve(dir);
  const problems = new SchemaProblems();
  const { paths, files: raw } = readSchemaFiles(absolute, problems);
  const present = new Set(paths);
  for (const required of requiredFiles)
    if (!present.has(required)) problems.add(required, "", "missing: every schema folder needs this file");
  const checked = raw.flatMap((file): CheckedSchemaFile[] => {
    const result = checkSchemaFile(file, problems);
    return result === undefined ? [] : [result];
  });
  const idOf = (relativePath: string): string => {
    if (!present.has(relativePath)) throw new Error(`no file ${relativePath} in schema folder ${absolute}`);
    return schemaIdBase + relativePath;
  };
  // A file that did not parse would read as missing to every $ref into it: its parse error says enough.
  if (raw.length === paths.length) checkRefs(raw, idOf, schemaIdBase, problems);
  problems.throwIfAny();
  // Every file passed its checks (else the line above threw), so each is in `checked`.
  const folder = checkCrossFile(checked, problems);
  problems.throwIfAny();

  const hash = createHash("sha256");
  const fileHashes = new Map<string, string>();
  for (const file of raw) {
    const canonical = canonicalJson(file.document);
    hash.update(`${file.path}\n${canonical}\n`);
    fileHashes.set(file.path, createHash("sha256").update(canonical).digest("hex"));
  }
  return {
    dir: absolute,
    hash: hash.digest("hex"),
    fileHashes,
    files: new Map(raw.map((file) => [file.path, { $id: idOf(file.path), ...file.document }])),
    ...folder,
    idOf,
  };
}

const folderAjvs = new WeakMap<LoadedSchemaFolder, Ajv2020>();

/**
 * The one ajv 2020-12 instance of a folder, holding every file under its assigned `$id`, set up
 * to give standalone code: validators.ts is printed from the very functions the rest of a run
 * compiled (the bundle's params checks, conform's validators), so no schema is compiled twice.
 * ajv's optimization pass is off: it counts every name in each function's code tree, about half
 * of ajv's time on RCP/1, to drop unused constants and empty blocks, which V8 drops anyway
 * (validators.ts is 10% larger for it). A function is made live only when called
 * (deferred-validators.ts): most are only printed.
 */
export function folderAjv(folder: LoadedSchemaFolder): Ajv2020 {
  let ajv = folderAjvs.get(folder);
  if (!ajv) {
    const deferred = deferredValidators();
    ajv = newFolderAjv(folder, {
      code: { source: true, esm: true, lines: true, optimize: false, process: deferred.process },
      inlineRefs: false,
    });
    deferred.install(ajv);
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
