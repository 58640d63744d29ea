/**
 * The root JSON Schema 2020-12 of the whole protocol: any single frame or a non-empty batch,
 * with each request's and notification's `params` bound to the schema of its method by
 * `method` (if/then), like the spec's normative root schema.
 */
import type { LoadedSchemaFolder } from "../load/loader.js";

/** The root schema alone, referring to the folder's files by their assigned `$id`s. */
export function messageSchema(folder: LoadedSchemaFolder): Record<string, unknown> {
  const ref = (path: string, pointer: string) => ({ $ref: `${folder.idOf(path)}#${pointer}` });
  const bindings = [...folder.methods, ...folder.notifications].map(({ file, method }) => ({
    if: { type: "object", required: ["method"], properties: { method: { const: method } } },
    then: { properties: { params: ref(file, "/$defs/params") } },
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
        allOf: bindings,
      },
    },
    anyOf: [{ $ref: "#/$defs/frame" }, { type: "array", minItems: 1, items: { $ref: "#/$defs/frame" } }],
  };
}

/** One self-contained document: the root schema with every file embedded under `$defs`. */
export function bundleSchema(folder: LoadedSchemaFolder): object {
  const root = messageSchema(folder);
  return { ...root, $defs: { ...Object.fromEntries(folder.files), ...(root["$defs"] as object) } };
}
