/**
 * Checks that need several files at once: wire names claimed once across the folder, the
 * reserved notification prefix, declared capability keys and params, unique shared type
 * names and roles, and unique error codes.
 */
import { checkCapabilityPaths } from "./capability-paths.js";
import { checkParamPaths } from "./param-paths.js";
import type { SchemaFileKind } from "./folder-layout.js";
import type { LoadedError, LoadedMethod, LoadedNotification } from "./loader.js";
import type { RawSchemaFile } from "./read-folder.js";
import type { SchemaProblems } from "./schema-folder-error.js";

export interface FolderAnnotations {
  methods: LoadedMethod[];
  notifications: LoadedNotification[];
  errors: LoadedError[];
}

type Annotated = { file: string; method: string; annotation: Record<string, unknown> };

/** The folder's annotations; every problem found across files is added to `problems`. */
export function checkCrossFile(
  files: readonly RawSchemaFile[],
  kinds: ReadonlyMap<string, SchemaFileKind>,
  problems: SchemaProblems,
): FolderAnnotations {
  const ofKind = (kind: SchemaFileKind) => files.filter((file) => kinds.get(file.path) === kind);
  const annotated = (file: RawSchemaFile): Annotated => {
    const annotation = file.document["x-rcp"] as Record<string, unknown>;
    return { file: file.path, method: annotation["method"] as string, annotation };
  };
  const methods = ofKind("method").map(annotated);
  const notifications = ofKind("notification").map(annotated);
  const protocol = ofKind("protocol")[0]?.document["x-rcp"] as { notificationPrefix: string };

  const claimedBy = new Map<string, string>();
  for (const entry of [...methods, ...notifications]) {
    const previous = claimedBy.get(entry.method);
    if (previous !== undefined)
      problems.add(entry.file, "/x-rcp/method", `method "${entry.method}" is already defined by ${previous}`);
    else claimedBy.set(entry.method, entry.file);
  }
  const prefix = protocol.notificationPrefix;
  for (const method of methods)
    if (method.method.startsWith(prefix))
      problems.add(method.file, "/x-rcp/method", `"${prefix}" is reserved for notifications (§4.5)`);
  for (const notification of notifications)
    if (!notification.method.startsWith(prefix) && !notification.method.startsWith("x-"))
      problems.add(
        notification.file,
        "/x-rcp/method",
        `a notification name starts with "${prefix}" or is a vendor name "x-<vendor>/<name>" (§4.5)`,
      );

  checkCapabilityPaths(methods, ofKind("capabilities")[0]?.document ?? {}, problems);
  const documents = new Map(files.map((file) => [file.path, file.document]));
  for (const method of methods) checkParamPaths(method, documents.get(method.file) ?? {}, problems);
  checkUnique(
    ofKind("type"),
    (file) => [{ pointer: "/title", value: String(file.document["title"]) }],
    "type name",
    problems,
  );
  checkUnique(
    ofKind("type").filter((file) => file.document["x-rcp"] !== undefined),
    (file) => [{ pointer: "/x-rcp/role", value: String((file.document["x-rcp"] as { role: string }).role) }],
    "type role",
    problems,
  );
  const errorsFile = ofKind("errors");
  const errors = (errorsFile[0]?.document["x-rcp"] as { codes: LoadedError[] }).codes;
  checkUnique(
    errorsFile,
    () =>
      errors.flatMap((error, index) => [
        { pointer: `/x-rcp/codes/${index}/code`, value: `code ${error.code}` },
        { pointer: `/x-rcp/codes/${index}/symbol`, value: `symbol ${error.symbol}` },
      ]),
    "error",
    problems,
  );

  const byWireName = (a: Annotated, b: Annotated) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0);
  return { methods: methods.sort(byWireName), notifications: notifications.sort(byWireName), errors };
}

function checkUnique(
  files: readonly RawSchemaFile[],
  valuesOf: (file: RawSchemaFile) => { pointer: string; value: string }[],
  what: string,
  problems: SchemaProblems,
): void {
  const seen = new Map<string, string>();
  for (const file of files)
    for (const { pointer, value } of valuesOf(file)) {
      const previous = seen.get(value);
      if (previous !== undefined) problems.add(file.path, pointer, `duplicate ${what} "${value}", also at ${previous}`);
      else seen.set(value, `${file.path}#${pointer}`);
    }
}
