/**
 * What the page builds its forms from: each method the engine can be asked, with its params
 * schema as one self-contained document ($refs across the folder's files inlined), so the
 * page needs no resolver. A schema that refers back to itself (a filter's and/or) is inlined
 * once and then left as "any JSON", which the page offers as a JSON field.
 */
import { readPointer } from "../load/json-pointer.js";
import { schemaIdBase, type LoadedSchemaFolder } from "../load/loader.js";
import type { RcpModel } from "../model/model.js";

export interface MethodView {
  readonly method: string;
  readonly title?: string;
  readonly description?: string;
  readonly spec?: string;
  /** The capability that gates it; null for methods every server answers. */
  readonly capability: string | null;
  readonly requires?: string;
  readonly streaming: boolean;
  readonly params: unknown;
}

/** The lifecycle methods the inspector itself runs (initialize) or that would end the session. */
const NOT_OFFERED = new Set(["initialize", "shutdown"]);

export function methodViews(model: RcpModel): MethodView[] {
  return model.methods
    .filter((method) => !NOT_OFFERED.has(method.method))
    .map((method) => ({
      method: method.method,
      ...(method.title === undefined ? {} : { title: method.title }),
      ...(method.description === undefined ? {} : { description: method.description }),
      ...(method.spec === undefined ? {} : { spec: method.spec }),
      capability: method.capability,
      ...(method.requires === undefined ? {} : { requires: method.requires }),
      streaming: method.streaming,
      params: inlined(model.schema, method.file, "/$defs/params"),
    }));
}

/** The schema at `file#pointer` with every $ref replaced by what it names. */
export function inlined(folder: LoadedSchemaFolder, file: string, pointer: string): unknown {
  return expand(folder, readPointer(folder.files.get(file), pointer), file, [`${file}#${pointer}`]);
}

function expand(folder: LoadedSchemaFolder, node: unknown, file: string, trail: readonly string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => expand(folder, item, file, trail));
  if (typeof node !== "object" || node === null) return node;
  const { $ref, ...rest } = node as Record<string, unknown>;
  const own = Object.fromEntries(
    Object.entries(rest)
      // With every $ref inlined, definitions and identifiers say nothing more.
      .filter(([key]) => !DROPPED_KEYWORDS.has(key))
      // Examples and enums are data, not schemas: they are copied as they are.
      .map(([key, value]) => [key, DATA_KEYWORDS.has(key) ? value : expand(folder, value, file, trail)]),
  );
  if (typeof $ref !== "string") return own;
  const target = new URL($ref, folder.idOf(file));
  const targetFile = target.href.slice(schemaIdBase.length).split("#")[0]!;
  const targetPointer = decodeURIComponent(target.hash.slice(1));
  const key = `${targetFile}#${targetPointer}`;
  if (trail.includes(key)) return { ...own, "x-inspector-recursive": true };
  const referenced = readPointer(folder.files.get(targetFile), targetPointer);
  const expanded = expand(folder, referenced, targetFile, [...trail, key]);
  // The referring schema's own words (its description) win over the referenced one's.
  return typeof expanded === "object" && expanded !== null ? { ...expanded, ...own } : expanded;
}

const DROPPED_KEYWORDS = new Set(["$defs", "$id", "$schema", "$comment"]);
const DATA_KEYWORDS = new Set(["examples", "enum", "const", "default", "x-rcp"]);
