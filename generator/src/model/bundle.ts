/**
 * The root JSON Schema 2020-12 of the whole protocol: any single frame or a non-empty batch,
 * with each request's and notification's `params` bound to the schema of its method by
 * `method` (if/then), like the spec's normative root schema. The bindings say what the
 * runtime enforces too: a notification's name never travels with an `id` (§4.5), and absent
 * `params` mean `{}` (so a method whose params require a member requires `params`).
 */
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import type { JsonSchema } from "../load/meta-schema/schema-files.js";
import { absoluteRef, compileRef } from "../load/schema-ajv.js";
import { schemaAt } from "./model.js";
import { representativeOf } from "./shape-identity.js";
import { validationKey } from "./validation-key.js";

/**
 * The root schema alone, referring to the folder's files by their assigned `$id`s. For a
 * validator (`shared`), each method's params refer to the first schema a validator checks the
 * same way (shape-identity.ts), so that identical params compile once.
 */
export function messageSchema(folder: LoadedSchemaFolder, { shared = false } = {}): Record<string, unknown> {
  const ref = (path: string, pointer: string) => ({ $ref: `${folder.idOf(path)}#${pointer}` });
  const paramsOf = (file: string) => ({
    $ref: absoluteRef(folder, shared ? sharedParams(folder, file) : `${file}#/$defs/params`),
  });
  const whenMethod = (method: string) => ({
    type: "object",
    required: ["method"],
    properties: { method: { const: method } },
  });
  const methodBindings = folder.methods.map(({ file, method }) => ({
    if: whenMethod(method),
    then: {
      properties: { params: paramsOf(file) },
      ...(acceptsAbsentParams(folder, file) ? {} : { required: ["params"] }),
    },
  }));
  const notificationBindings = folder.notifications.map(({ file, method }) => ({
    if: whenMethod(method),
    then: {
      properties: { params: paramsOf(file) },
      not: { description: `${method} is a notification: it never carries an id (§4.5).`, required: ["id"] },
    },
  }));
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: new URL("message.json", folder.idOf("protocol.json")).href,
    title: "An RCP frame or batch",
    $defs: {
      frame: {
        anyOf: [
          ref("protocol.json", "/$defs/request"),
          ref("protocol.json", "/$defs/notification"),
          ref("protocol.json", "/$defs/response"),
        ],
        allOf: grouped([...methodBindings, ...notificationBindings]),
      },
    },
    anyOf: [{ $ref: "#/$defs/frame" }, { type: "array", minItems: 1, items: { $ref: "#/$defs/frame" } }],
  };
}

/** Bindings per `allOf` group, past which they are grouped. */
const GROUP_SIZE = 64;

/**
 * The same `allOf`, in groups of GROUP_SIZE when longer: ajv compiles each member of an `allOf`
 * one block deeper than the last, and its code generator's work grows with depth times size,
 * so a flat list would make a folder's cost grow with the square of its methods. Grouped, the
 * depth is a group's size plus the number of groups; an `allOf` of `allOf`s validates exactly
 * what the flat one does.
 */
function grouped(bindings: readonly object[]): object[] {
  if (bindings.length <= GROUP_SIZE) return [...bindings];
  const groups: object[] = [];
  for (let start = 0; start < bindings.length; start += GROUP_SIZE)
    groups.push({ allOf: bindings.slice(start, start + GROUP_SIZE) });
  return groups;
}

/** Verdicts of acceptsAbsentParams under a validation key: --watch runs compile nothing for a description edit. */
let verdicts: { key: string; byFile: Map<string, boolean> } | undefined;

function verdictsOf(folder: LoadedSchemaFolder): Map<string, boolean> {
  const key = validationKey(folder);
  if (verdicts?.key !== key) verdicts = { key, byFile: new Map() };
  return verdicts.byFile;
}

/** Whether a request without `params` is valid: the runtime reads absent params as `{}` (§4.1). */
function acceptsAbsentParams(folder: LoadedSchemaFolder, file: string): boolean {
  const byFile = verdictsOf(folder);
  let accepts = byFile.get(file);
  if (accepts === undefined) {
    accepts = !refusesEmptyObject(paramsSchema(folder, file)) && validatesEmptyObject(folder, file);
    byFile.set(file, accepts);
  }
  return accepts;
}

/**
 * What the schema's own keywords settle without running it: a member it requires, or a type
 * other than object, refuses `{}` whatever else it says (keywords of one schema all apply).
 * Only the others are compiled and run.
 */
function refusesEmptyObject(schema: JsonSchema | boolean | undefined): boolean {
  if (typeof schema !== "object") return schema === false;
  const { required, type } = schema as { required?: unknown; type?: unknown };
  if (Array.isArray(required) && required.length > 0) return true;
  if (typeof type === "string") return type !== "object";
  return Array.isArray(type) && !type.includes("object");
}

function paramsSchema(folder: LoadedSchemaFolder, file: string): JsonSchema | boolean | undefined {
  return schemaAt(folder, file, "/$defs/params");
}

function validatesEmptyObject(folder: LoadedSchemaFolder, file: string): boolean {
  return compileRef(folder, sharedParams(folder, file))({}) === true;
}

/** The first schema that checks what a file's params check (shape-identity.ts): the one compiled for them. */
function sharedParams(folder: LoadedSchemaFolder, file: string): string {
  return representativeOf(folder, `${file}#/$defs/params`);
}

/** One self-contained document: the root schema with every file embedded under `$defs`. */
export function bundleSchema(folder: LoadedSchemaFolder): object {
  const root = messageSchema(folder);
  return { ...root, $defs: { ...Object.fromEntries(folder.files), ...(root["$defs"] as object) } };
}
