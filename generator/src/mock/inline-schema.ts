/**
 * One schema of a folder with every `$ref` replaced by what it points at, so a generator that
 * reads one self-contained schema (json-schema-faker) can sample it. Recursive types (a filter
 * clause holding clauses) are cut at `maxDepth` refs deep, where any value is accepted: what
 * is sampled there is checked against the real schema afterwards.
 */
import { readPointer, isJsonObject } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";

const DEFAULT_MAX_DEPTH = 6;

export function inlineSchema(folder: LoadedSchemaFolder, ref: string, maxDepth = DEFAULT_MAX_DEPTH): unknown {
  const fileOfId = new Map([...folder.files.keys()].map((file) => [folder.idOf(file), file]));
  const resolve = (base: string, target: string): { file: string; schema: unknown } | undefined => {
    const url = new URL(target, base);
    const pointer = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    const file = fileOfId.get(url.href);
    return file === undefined ? undefined : { file, schema: readPointer(folder.files.get(file), pointer) };
  };
  const walk = (node: unknown, file: string, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, file, depth));
    if (!isJsonObject(node)) return node;
    const { $ref, $id: _id, $schema: _schema, $defs: _defs, ...rest } = node;
    const own = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, walk(value, file, depth)]));
    if (typeof $ref !== "string") return own;
    const target = depth < maxDepth ? resolve(folder.idOf(file), $ref) : undefined;
    if (target === undefined) return own;
    const inlined = walk(target.schema, target.file, depth + 1);
    return isJsonObject(inlined) ? { ...inlined, ...own } : own;
  };
  const [file = "", pointer = ""] = ref.split("#");
  return walk(readPointer(folder.files.get(file), pointer), file, 0);
}
