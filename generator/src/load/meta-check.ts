/**
 * Checks each file of a schema folder on its own: a valid JSON Schema 2020-12 document with
 * only known keywords and no `$id`, whose shape matches the meta-schema of its place in the
 * folder (generator/meta-schema/).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import capabilitiesFile from "./meta-schema/capabilities-file.json" with { type: "json" };
import common from "./meta-schema/common.json" with { type: "json" };
import errorsFile from "./meta-schema/errors-file.json" with { type: "json" };
import metaFile from "./meta-schema/meta-file.json" with { type: "json" };
import methodFile from "./meta-schema/method-file.json" with { type: "json" };
import notificationFile from "./meta-schema/notification-file.json" with { type: "json" };
import protocolFile from "./meta-schema/protocol-file.json" with { type: "json" };
import typeFile from "./meta-schema/type-file.json" with { type: "json" };
import { issueToError } from "./ajv-issue.js";
import { kindOfPath, layoutDescription, type SchemaFileKind } from "./folder-layout.js";
import { appendPointer } from "./json-pointer.js";
import type { CheckedSchemaFile, SchemaFileDocuments } from "./meta-schema/schema-files.js";
import type { RawSchemaFile } from "./read-folder.js";
import type { SchemaProblems } from "./schema-folder-error.js";
import { walkSchema } from "./schema-walk.js";

const metaSchemaBase = "https://rcp-gen.invalid/meta-schema/";

/** The meta-schema each kind of file must match, and its file name under meta-schema/. */
const metaSchemas: Readonly<Record<SchemaFileKind, [string, object]>> = {
  protocol: ["protocol-file.json", protocolFile],
  meta: ["meta-file.json", metaFile],
  errors: ["errors-file.json", errorsFile],
  capabilities: ["capabilities-file.json", capabilitiesFile],
  type: ["type-file.json", typeFile],
  notification: ["notification-file.json", notificationFile],
  method: ["method-file.json", methodFile],
};

/** Each kind's meta-schema validator: a guard for the document type schema-files.ts declares for it. */
type KindValidators = { readonly [K in SchemaFileKind]: ValidateFunction<SchemaFileDocuments[K]> };

let checker: { ajv: Ajv2020; byKind: KindValidators } | undefined;

function metaChecker(): NonNullable<typeof checker> {
  if (checker) return checker;
  const ajv = new Ajv2020({
    allErrors: false,
    verbose: true,
    discriminator: true,
    strict: true,
    strictRequired: false,
    strictTypes: false,
  });
  ajv.addKeyword({ keyword: "x-problem", schemaType: "string" });
  ajv.addSchema({ ...common, $id: `${metaSchemaBase}common.json` });
  const compile = <K extends SchemaFileKind>(kind: K): ValidateFunction<SchemaFileDocuments[K]> => {
    const [name, schema] = metaSchemas[kind];
    return ajv.compile<SchemaFileDocuments[K]>({ ...schema, $id: metaSchemaBase + name });
  };
  const byKind: KindValidators = {
    protocol: compile("protocol"),
    meta: compile("meta"),
    errors: compile("errors"),
    capabilities: compile("capabilities"),
    type: compile("type"),
    notification: compile("notification"),
    method: compile("method"),
  };
  checker = { ajv, byKind };
  return checker;
}

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
  const { ajv } = metaChecker();
  const validSchema = ajv.validateSchema(file.document);
  if (!validSchema) problems.attempt(() => throwIssue(file.path, ajv.errors));
  checkKeywords(file, ajv, problems);
  // The meta-schema of the file's place assumes a valid JSON Schema: it would only repeat the problem.
  return validSchema ? checkPlace(kind, file, problems) : undefined;
}

function checkPlace(
  kind: SchemaFileKind,
  file: RawSchemaFile,
  problems: SchemaProblems,
): CheckedSchemaFile | undefined {
  const { byKind } = metaChecker();
  const { path, document } = file;
  const checked = ((): CheckedSchemaFile | undefined => {
    switch (kind) {
      case "protocol":
        return byKind.protocol(document) ? { kind, path, document } : undefined;
      case "meta":
        return byKind.meta(document) ? { kind, path, document } : undefined;
      case "errors":
        return byKind.errors(document) ? { kind, path, document } : undefined;
      case "capabilities":
        return byKind.capabilities(document) ? { kind, path, document } : undefined;
      case "type":
        return byKind.type(document) ? { kind, path, document } : undefined;
      case "notification":
        return byKind.notification(document) ? { kind, path, document } : undefined;
      case "method":
        return byKind.method(document) ? { kind, path, document } : undefined;
    }
  })();
  if (checked === undefined) problems.attempt(() => throwIssue(path, byKind[kind].errors));
  return checked;
}

function throwIssue(file: string, errors: Parameters<typeof issueToError>[1] | null | undefined): never {
  throw issueToError(file, errors ?? []);
}

/** Keywords the folder's ajv does not enable, though the meta-schema checker knows them. */
const metaSchemaOnlyKeywords = new Set(["discriminator", "x-problem"]);

/**
 * Unknown keywords are almost always typos (`requried`); `x-` keys are annotations. Patterns
 * must compile as Unicode regular expressions, as ajv will compile them. No object is closed.
 */
function checkKeywords(file: RawSchemaFile, ajv: Ajv2020, problems: SchemaProblems): void {
  walkSchema(file.document, (schema, pointer) => {
    if (typeof schema !== "object" || schema === null) return;
    for (const key of Object.keys(schema)) {
      const at = appendPointer(pointer, key);
      const known = key in ajv.RULES.keywords && !metaSchemaOnlyKeywords.has(key);
      if (key === "$id") problems.add(file.path, at, "declares $id; the loader assigns every file's $id from its path");
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
