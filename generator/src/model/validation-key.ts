/**
 * A key that changes when anything a validator checks changes, and only then: every schema
 * file as canonical JSON, with the annotations no validator reads (string `description`,
 * `title` and `$comment`, `examples` lists) left out of its schemas; instances such as a
 * `const` object keep every member. `rcp-gen --watch` reuses ajv's work
 * across runs under this key, so a description edit is not a recompilation.
 */
import { canonicalJson } from "../load/canonical-json.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { subschemaKeywords } from "../load/schema-walk.js";

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

/** The schema without what no validator reads; instances (`const`, `enum`, ...) kept whole. */
function withoutAnnotations(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (isAnnotation(keyword, value)) continue;
    const shape = subschemaKeywords[keyword];
    if (shape?.holds === "single") result[keyword] = withoutAnnotations(value);
    else if (shape?.holds === "list" && Array.isArray(value)) result[keyword] = value.map(withoutAnnotations);
    else if (shape?.holds === "map" && typeof value === "object" && value !== null)
      result[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, member]) => [name, withoutAnnotations(member)]),
      );
    else result[keyword] = value;
  }
  return result;
}

/** What no validator reads: a string description, title or $comment; an examples list. */
export function isAnnotation(keyword: string, value: unknown): boolean {
  if (keyword === "examples") return Array.isArray(value);
  return (keyword === "description" || keyword === "title" || keyword === "$comment") && typeof value === "string";
}
