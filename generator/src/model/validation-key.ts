/**
 * A key that changes when anything a validator checks changes, and only then: every schema
 * file as canonical JSON, with the annotations no validator reads (string `description`,
 * `title` and `$comment`, `examples` lists) left out of its schemas; instances such as a
 * `const` object keep every member. `rcp-gen --watch` reuses ajv's work
 * across runs under this key, so a description edit is not a recompilation.
 */
import { canonicalJson } from "../load/canonical-json.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import { subschemaKeywords } from "../load/schema-walk.js";

const keys = new WeakMap<LoadedSchemaFolder, string>();

export function validationKey(folder: LoadedSchemaFolder): string {
  let key = keys.get(folder);
  if (key === undefined) {
    key = [...folder.files].map(([path, document]) => `${path}\n${canonicalJson(validatedPart(document))}`).join("\n");
    keys.set(folder, key);
  }
  return key;
}

/** What `validatedPart`'s `special` returns to leave a keyword to the walk. */
export const asIs: unique symbol = Symbol("as is");

/**
 * The schema as a validator reads it: annotations left out at every schema position, never
 * inside an instance (a `const` object keeps every member). `special` sees each other keyword
 * first and may give its value (or throw); `asIs` lets the walk treat it.
 */
export function validatedPart(
  schema: unknown,
  special: (keyword: string, value: unknown) => unknown = () => asIs,
): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const sub = (value: unknown) => validatedPart(value, special);
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (isAnnotation(keyword, value)) continue;
    const given = special(keyword, value);
    const shape = subschemaKeywords[keyword];
    if (given !== asIs) result[keyword] = given;
    else if (shape?.holds === "single") result[keyword] = sub(value);
    else if (shape?.holds === "list" && Array.isArray(value)) result[keyword] = value.map(sub);
    else if (shape?.holds === "map" && typeof value === "object" && value !== null)
      result[keyword] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, sub(member)]),
      );
    else result[keyword] = value;
  }
  return result;
}

/** What no validator reads: a string description, title or $comment; an examples list. */
function isAnnotation(keyword: string, value: unknown): boolean {
  if (keyword === "examples") return Array.isArray(value);
  return (keyword === "description" || keyword === "title" || keyword === "$comment") && typeof value === "string";
}
