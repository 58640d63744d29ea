/**
 * Enumerates the subschemas of a JSON Schema 2020-12 node. `sameInstance` marks applicators
 * that evaluate the very same instance (allOf, not, if, ...): a `$ref` cycle made only of
 * those never reaches deeper data and so never terminates.
 */
import { appendPointer } from "./json-pointer.js";

export interface Subschema {
  readonly schema: unknown;
  readonly pointer: string;
  readonly sameInstance: boolean;
}

const singleSameInstance = ["not", "if", "then", "else"];
const listSameInstance = ["allOf", "anyOf", "oneOf"];
const mapSameInstance = ["dependentSchemas"];
const singleChild = [
  "additionalProperties",
  "items",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
const listChild = ["prefixItems"];
const mapChild = ["properties", "patternProperties"];
/** Containers of schemas that apply only when referenced. */
const mapDefinitions = ["$defs", "definitions"];

export const schemaKeywordsWithSubschemas: ReadonlySet<string> = new Set([
  ...singleSameInstance,
  ...listSameInstance,
  ...mapSameInstance,
  ...singleChild,
  ...listChild,
  ...mapChild,
  ...mapDefinitions,
]);

export function subschemasOf(node: unknown, pointer: string): Subschema[] {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return [];
  const record = node as Record<string, unknown>;
  const found: Subschema[] = [];
  const add = (keywords: readonly string[], shape: "single" | "list" | "map", sameInstance: boolean) => {
    for (const keyword of keywords) {
      const value = record[keyword];
      if (value === undefined) continue;
      const at = appendPointer(pointer, keyword);
      if (shape === "single") found.push({ schema: value, pointer: at, sameInstance });
      else if (shape === "list" && Array.isArray(value))
        value.forEach((schema, index) => found.push({ schema, pointer: appendPointer(at, index), sameInstance }));
      else if (shape === "map" && typeof value === "object" && value !== null && !Array.isArray(value))
        for (const [key, schema] of Object.entries(value))
          found.push({ schema, pointer: appendPointer(at, key), sameInstance });
    }
  };
  add(singleSameInstance, "single", true);
  add(listSameInstance, "list", true);
  add(mapSameInstance, "map", true);
  add(singleChild, "single", false);
  add(listChild, "list", false);
  add(mapChild, "map", false);
  add(mapDefinitions, "map", false);
  return found;
}

/** Visits `root` and every subschema below it, depth first, in document order. */
export function walkSchema(root: unknown, visit: (schema: unknown, pointer: string) => void, pointer = ""): void {
  visit(root, pointer);
  for (const child of subschemasOf(root, pointer)) walkSchema(child.schema, visit, child.pointer);
}
