/**
 * Checks each file of a schema folder on its own: a valid JSON Schema 2020-12 document with
 * only known keywords and no `$id`, whose shape matches the meta-schema of its place in the
 * folder (./meta-schema/).
 */
import { issueToError } from "./ajv-issue.js";
import { kindOfPath, layoutDescription, type SchemaFileKind } from "./folder-layout.js";
import { appendPointer } from "./json-pointer.js";
import * as checkers from "./meta-schema/checkers.js";
import type { CheckedSchemaFile } from "./meta-schema/schema-files.js";
import type { RawSchemaFile } from "./read-folder.js";
import type { SchemaProblems } from "./schema-folder-error.js";
import { walkSchema } from "./schema-walk.js";

/**
 * The file, typed by the meta-schema of its place, when it matches it; its problems (any
 * check's) are added to `problems`. Undefined when it does not match, or has no place.
 */
export function checkSchemaFile(file: RawSchemaFile, problems: SchemaProblems): CheckedSchemaFile | undefined {
  const kind = kindOfPath(file.path);
  if (!kind) {
    problems.add(file.path, "", `no place for this file in a schema folder: ${layoutDescription}`);
    return undefined;
  }
  const validSchema = checkers.jsonSchema(file.document);
  if (!validSchema) problems.attempt(() => throwIssue(file.path, checkers.jsonSchema.errors));
  checkKeywords(file, problems);
  // The meta-schema of the file's place assumes a valid JSON Schema: it would only repeat the problem.
  return validSchema ? checkPlace(kind, file, problems) : undefined;
}

function checkPlace(
  kind: SchemaFileKind,
  file: RawSchemaFile,
  problems: SchemaProblems,
): CheckedSchemaFile | undefined {
  const { path, document } = file;
  const checked = ((): CheckedSchemaFile | undefined => {
    switch (kind) {
      case "protocol":
        return checkers.protocol(document) ? { kind, path, document } : undefined;
      case "meta":
        return checkers.meta(document) ? { kind, path, document } : undefined;
      case "errors":
        return checkers.errors(document) ? { kind, path, document } : undefined;
      case "capabilities":
        return checkers.capabilities(document) ? { kind, path, document } : undefined;
      case "type":
        return checkers.type(document) ? { kind, path, document } : undefined;
      case "notification":
        return checkers.notification(document) ? { kind, path, document } : undefined;
      case "method":
        return checkers.method(document) ? { kind, path, document } : undefined;
    }
  })();
  if (checked === undefined) problems.attempt(() => throwIssue(path, checkers[kind].errors));
  return checked;
}

function throwIssue(file: string, errors: Parameters<typeof issueToError>[1] | null | undefined): never {
  throw issueToError(file, errors ?? []);
}

/**
 * ajv still knows draft-7's `dependencies`, but nothing else that reads a folder walks it (its
 * `$ref`s would go unchecked and unresolved by the types): 2020-12 split it in two.
 */
const draft7Dependencies =
  "draft-7 keyword: JSON Schema 2020-12 writes it as dependentRequired (lists of names) and dependentSchemas (schemas)";

/** Keywords the folder's ajv does not enable, though the meta-schema checker knows them. */
const metaSchemaOnlyKeywords = new Set(["discriminator", "x-problem"]);
const schemaKeywords = new Set(checkers.knownKeywords.filter((keyword) => !metaSchemaOnlyKeywords.has(keyword)));

/**
 * Unknown keywords are almost always typos (`requried`); `x-` keys are annotations. Patterns
 * must compile as Unicode regular expressions, as ajv will compile them. No object is closed.
 */
function checkKeywords(file: RawSchemaFile, problems: SchemaProblems): void {
  walkSchema(file.document, (schema, pointer) => {
    if (typeof schema !== "object" || schema === null) return;
    for (const key of Object.keys(schema)) {
      const at = appendPointer(pointer, key);
      const known = schemaKeywords.has(key);
      if (key === "$id") problems.add(file.path, at, "declares $id; the loader assigns every file's $id from its path");
      else if (key === "dependencies") problems.add(file.path, at, draft7Dependencies);
      else if (!key.startsWith("x-") && key !== "$anchor" && !known)
        problems.add(file.path, at, `unknown JSON Schema keyword "${key}"`);
    }
    for (const closing of ["additionalProperties", "unevaluatedProperties"])
      if ((schema as Record<string, unknown>)[closing] === false)
        problems.add(
          file.path,
          appendPointer(pointer, closing),
          "closes the object, but receivers must ignore unknown members (§4.6); generated types are closed instead",
        );
    const { pattern, patternProperties } = schema as { pattern?: unknown; patternProperties?: object };
    if (typeof pattern === "string") checkPattern(file, appendPointer(pointer, "pattern"), pattern, problems);
    for (const key of Object.keys(patternProperties ?? {}))
      checkPattern(file, appendPointer(appendPointer(pointer, "patternProperties"), key), key, problems);
  });
}

function checkPattern(file: RawSchemaFile, pointer: string, pattern: string, problems: SchemaProblems): void {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    problems.add(file.path, pointer, `invalid regular expression: ${(error as Error).message}`);
  }
}
