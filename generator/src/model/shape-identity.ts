/**
 * Which schemas a validator checks identically: the same keywords once annotations are left out,
 * each `$ref` read as the location it points to (or, inside its own file, as what it points to).
 * validators.ts compiles one function per identity and exports every other shape with that
 * identity as the same function, and the message validator binds their methods to it: a folder
 * whose vendor methods repeat retrieve's params compiles them once, not once per method.
 *
 * Conservative: a schema that uses anchors or dynamic references, or points into its own file
 * in a cycle, is identical only to itself.
 */
import { canonicalJson } from "../load/canonical-json.js";
import { readPointer } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { subschemaKeywords } from "../load/schema-walk.js";
import { allShapes } from "./shapes.js";

/** Keywords whose meaning depends on where the schema is, not only on what it says. */
const locationKeywords = new Set(["$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveAnchor", "$recursiveRef"]);

class OnlyItself extends Error {}

const representatives = new WeakMap<LoadedSchemaFolder, Map<string, string>>();

/**
 * The shape whose compiled validator checks what the shape at `ref` checks (`file#pointer`, or
 * `file` for a whole file): the first shape of the folder's fixed order (shapes.ts) with its
 * identity, so the choice never depends on which target asked first.
 */
export function representativeOf(folder: LoadedSchemaFolder, ref: string): string {
  let byRef = representatives.get(folder);
  if (!byRef) {
    byRef = new Map();
    const keys = new Map<string, string | null>();
    const firsts = new Map<string, string>();
    for (const shape of allShapes(folder)) {
      const key = identityKey(folder, location(shape.ref), keys, new Set());
      const first = key === null ? shape.ref : (firsts.get(key) ?? shape.ref);
      if (key !== null && !firsts.has(key)) firsts.set(key, shape.ref);
      byRef.set(shape.ref, first);
    }
    representatives.set(folder, byRef);
  }
  return byRef.get(ref) ?? ref;
}

const location = (ref: string) => (ref.includes("#") ? ref : `${ref}#`);

function identityKey(
  folder: LoadedSchemaFolder,
  location: string,
  keys: Map<string, string | null>,
  inProgress: Set<string>,
): string | null {
  const known = keys.get(location);
  if (known !== undefined) return known;
  if (inProgress.has(location)) throw new OnlyItself();
  inProgress.add(location);
  const [file = "", pointer = ""] = location.split("#");
  let key: string | null;
  try {
    key = canonicalJson(rewritten(folder, file, readPointer(folder.files.get(file), pointer), keys, inProgress));
  } catch (error) {
    if (!(error instanceof OnlyItself)) throw error;
    key = null;
  } finally {
    inProgress.delete(location);
  }
  keys.set(location, key);
  return key;
}

/** The schema as a validator sees it: no annotations, references replaced by what they mean. */
function rewritten(
  folder: LoadedSchemaFolder,
  file: string,
  schema: unknown,
  keys: Map<string, string | null>,
  inProgress: Set<string>,
): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const sub = (value: unknown) => rewritten(folder, file, value, keys, inProgress);
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (locationKeywords.has(keyword)) throw new OnlyItself();
    if (isAnnotation(keyword, value)) continue;
    const shape = subschemaKeywords[keyword];
    if (keyword === "$ref" && typeof value === "string")
      result[keyword] = reference(folder, file, value, keys, inProgress);
    else if (shape?.holds === "single") result[keyword] = sub(value);
    else if (shape?.holds === "list" && Array.isArray(value)) result[keyword] = value.map(sub);
    else if (shape?.holds === "map" && typeof value === "object" && value !== null)
      result[keyword] = Object.fromEntries(Object.entries(value).map(([name, member]) => [name, sub(member)]));
    else result[keyword] = value;
  }
  return result;
}

/** Another file's location as it is; a location in the same file as its own identity (the file is a clone's). */
function reference(
  folder: LoadedSchemaFolder,
  file: string,
  ref: string,
  keys: Map<string, string | null>,
  inProgress: Set<string>,
): unknown {
  const base = folder.idOf(file);
  const url = new URL(ref, base);
  const fragment = decodeURIComponent(url.hash.slice(1));
  if (fragment !== "" && !fragment.startsWith("/")) throw new OnlyItself();
  url.hash = "";
  // Every file's $id is one base followed by its path.
  const target = url.href.slice(base.length - file.length);
  if (target !== file) return `${target}#${fragment}`;
  const key = identityKey(folder, `${file}#${fragment}`, keys, inProgress);
  if (key === null) throw new OnlyItself();
  return { same: key };
}

/** What no validator reads: string description, title and $comment; an examples list. */
function isAnnotation(keyword: string, value: unknown): boolean {
  if (keyword === "examples") return Array.isArray(value);
  return (keyword === "description" || keyword === "title" || keyword === "$comment") && typeof value === "string";
}
