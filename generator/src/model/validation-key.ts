/**
 * A key that changes when anything a validator checks changes, and only then: every schema
 * file as canonical JSON, with the annotations no validator reads (string `description`,
 * `title` and `$comment`, `examples` lists) left out. `rcp-gen --watch` reuses ajv's work
 * across runs under this key, so a description edit is not a recompilation.
 */
import { canonicalJson } from "../load/canonical-json.js";
import type { LoadedSchemaFolder } from "../load/loader.js";

const keys = new WeakMap<LoadedSchemaFolder, string>();

export function validationKey(folder: LoadedSchemaFolder): string {
  let key = keys.get(folder);
  if (key === undefined) {
    key = [...folder.files]
      .map(([path, document]) => `${path}\n${canonicalJson(withoutAnnotations(document))}`)
      .join("\n");
    keys.set(folder, key);
  }
  return key;
}

function withoutAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAnnotations);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, member]) =>
        key === "examples"
          ? !Array.isArray(member)
          : !(["description", "title", "$comment"].includes(key) && typeof member === "string"),
      )
      .map(([key, member]) => [key, withoutAnnotations(member)]),
  );
}
