/**
 * Checks that need several files at once: wire names claimed once across the folder, the
 * reserved notification prefix, declared capability keys and params, unique shared type
 * names and roles, and unique error codes that agree with RCP/1's (the runtime's `rcpErrors`).
 * Returns the folder's documents by kind.
 */
import { rcpErrors } from "@rcp-gen/runtime/codegen-protocol";
import { checkCapabilityPaths } from "./capability-paths.js";
import { checkParamPaths } from "./param-paths.js";
import type { LoadedError, LoadedMethod, LoadedNotification, LoadedSchemaFolder, LoadedType } from "./loaded-folder.js";
import type {
  CapabilitiesFile,
  CheckedSchemaFile,
  ErrorsFile,
  MetaFile,
  ProtocolFile,
} from "./meta-schema/schema-files.js";
import type { SchemaProblems } from "./schema-folder-error.js";
import type { ErrorDescriptor } from "@rcp-gen/runtime";

export type FolderDocuments = Pick<
  LoadedSchemaFolder,
  "protocol" | "meta" | "capabilities" | "types" | "methods" | "notifications" | "errors"
>;

/** The folder's documents by kind; every problem found across files is added to `problems`. */
export function checkCrossFile(files: readonly CheckedSchemaFile[], problems: SchemaProblems): FolderDocuments {
  const methods: LoadedMethod[] = [];
  const notifications: LoadedNotification[] = [];
  const types: LoadedType[] = [];
  const single: { protocol?: ProtocolFile; meta?: MetaFile; capabilities?: CapabilitiesFile; errors?: ErrorsFile } = {};
  for (const { kind, path: file, document } of files)
    switch (kind) {
      case "method":
        methods.push({ file, method: document["x-rcp"].method, annotation: document["x-rcp"], document });
        break;
      case "notification":
        notifications.push({ file, method: document["x-rcp"].method, annotation: document["x-rcp"], document });
        break;
      case "type":
        types.push({ file, document });
        break;
      case "protocol":
        single.protocol = document;
        break;
      case "meta":
        single.meta = document;
        break;
      case "capabilities":
        single.capabilities = document;
        break;
      case "errors":
        single.errors = document;
    }
  const { protocol, meta, capabilities, errors: errorsFile } = single;
  // The loader reports a missing required file before this check runs.
  if (!protocol || !meta || !capabilities || !errorsFile)
    throw new Error("rcp-gen internal error: a required schema file did not reach the cross-file check");
  const errors: LoadedError[] = [...errorsFile["x-rcp"].codes];

  checkWireNames(methods, notifications, protocol["x-rcp"].notificationPrefix, problems);
  checkCapabilityPaths(methods, capabilities, problems);
  for (const method of methods) checkParamPaths(method, problems);
  checkUnique(
    types.map(({ file, document }) => ({ file, pointer: "/title", value: document.title })),
    "type name",
    problems,
  );
  checkUnique(
    types.flatMap(({ file, document }) =>
      document["x-rcp"] === undefined ? [] : [{ file, pointer: "/x-rcp/role", value: document["x-rcp"].role }],
    ),
    "type role",
    problems,
  );
  checkUnique(
    errors.flatMap((error, index) => [
      { file: "errors.json", pointer: `/x-rcp/codes/${index}/code`, value: `code ${error.code}` },
      { file: "errors.json", pointer: `/x-rcp/codes/${index}/symbol`, value: `symbol ${error.symbol}` },
    ]),
    "error",
    problems,
  );
  checkStandardErrors(errors, problems);
  checkDocumentedErrors(methods, errors, problems);
  const byWireName = (a: { method: string }, b: { method: string }) =>
    a.method < b.method ? -1 : a.method > b.method ? 1 : 0;
  return {
    protocol,
    meta,
    capabilities,
    types,
    methods: methods.sort(byWireName),
    notifications: notifications.sort(byWireName),
    errors,
  };
}

function checkWireNames(
  methods: readonly LoadedMethod[],
  notifications: readonly LoadedNotification[],
  prefix: string,
  problems: SchemaProblems,
): void {
  const claimedBy = new Map<string, string>();
  for (const entry of [...methods, ...notifications].sort((a, b) => (a.file < b.file ? -1 : 1))) {
    const previous = claimedBy.get(entry.method);
    if (previous !== undefined)
      problems.add(entry.file, "/x-rcp/method", `method "${entry.method}" is already defined by ${previous}`);
    else claimedBy.set(entry.method, entry.file);
  }
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
}

/** Each value once: a repeat is a problem at its own place, naming the first. */
function checkUnique(
  values: readonly { file: string; pointer: string; value: string }[],
  what: string,
  problems: SchemaProblems,
): void {
  const seen = new Map<string, string>();
  for (const { file, pointer, value } of values) {
    const previous = seen.get(value);
    if (previous !== undefined) problems.add(file, pointer, `duplicate ${what} "${value}", also at ${previous}`);
    else seen.set(value, `${file}#${pointer}`);
  }
}

/**
 * errors.json may repeat RCP/1's codes, as the runtime's table has them, and add codes of its own
 * under symbols of their own: generated code and every client read the runtime's table for the
 * standard codes, so a different symbol, message or retry verdict would be silently ignored.
 */
function checkStandardErrors(errors: readonly LoadedError[], problems: SchemaProblems): void {
  const standard: Readonly<Record<string, ErrorDescriptor | undefined>> = rcpErrors;
  const standardSymbols = new Map(Object.values(rcpErrors).map((error) => [error.symbol as string, error.code]));
  errors.forEach((error, index) => {
    const at = (member: string) => `/x-rcp/codes/${index}/${member}`;
    const known = standard[String(error.code)];
    if (known === undefined) {
      const taken = standardSymbols.get(error.symbol);
      if (taken !== undefined)
        problems.add(
          "errors.json",
          at("symbol"),
          `"${error.symbol}" is RCP/1's symbol for ${taken}; code ${error.code} needs a symbol of its own`,
        );
      return;
    }
    for (const member of ["symbol", "message", "retryable"] as const)
      if (error[member] !== known[member])
        problems.add(
          "errors.json",
          at(member),
          `code ${error.code} has ${member} ${JSON.stringify(known[member])} in RCP/1's error table (the runtime's rcpErrors), not ${JSON.stringify(error[member])}`,
        );
  });
}

/** A method's `errors` name codes of errors.json. */
function checkDocumentedErrors(
  methods: readonly LoadedMethod[],
  errors: readonly LoadedError[],
  problems: SchemaProblems,
): void {
  const symbols = new Set(errors.map((error) => error.symbol));
  for (const { file, annotation } of methods)
    (annotation.errors ?? []).forEach((symbol, index) => {
      if (!symbols.has(symbol))
        problems.add(file, `/x-rcp/errors/${index}`, `"${symbol}" is not a symbol of errors.json`);
    });
}
