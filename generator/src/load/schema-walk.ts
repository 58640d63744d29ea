/**
 * The subschemas of a JSON Schema 2020-12 node. `sameInstance` marks applicators that
 * evaluate the very same instance (allOf, not, if, ...): a `$ref` cycle made only of those
 * never reaches deeper data and so never terminates.
 */
import { appendPointer } from "./json-pointer.js";

export interface Subschema {
  readonly schema: unknown;
  readonly pointer: string;
  readonly sameInstance: boolean;
}

type KeywordShape = { holds: "single" | "list" | "map"; sameInstance: boolean };

const same = (holds: KeywordShape["holds"]): KeywordShape => ({ holds, sameInstance: true });
const child = (holds: KeywordShape["holds"]): KeywordShape => ({ holds, sameInstance: false });

/** Keywords whose values are schemas, lists of schemas or maps of schemas. */
export const subschemaKeywords: Readonly<Record<string, KeywordShape>> = {
  not: same("single"),
  if: same("single"),
  then: same("single"),
  else: same("single"),
  allOf: same("list"),
  anyOf: same("list"),
  oneOf: same("list"),
  dependentSchemas: same("map"),
  additionalProperties: child("single"),
  items: child("single"),
  contains: child("single"),
  propertyNames: child("single"),
  unevaluatedItems: child("single"),
  unevaluatedProperties: child("single"),
  contentSchema: child("single"),
  prefixItems: child("list"),
  properties: child("map"),
  patternProperties: child("map"),
  // Definitions apply only when referenced; walked so their $refs are checked too.
  $defs: child("map"),
  definitions: child("map"),
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function subschemasOf(node: unknown, pointer: string): Subschema[] {
  if (!isRecord(node)) return [];
  const found: Subschema[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    const shape = subschemaKeywords[keyword];
    if (!shape) continue;
    const at = appendPointer(pointer, keyword);
    const { sameInstance } = shape;
    if (shape.holds === "single") found.push({ schema: value, pointer: at, sameInstance });
    else if (shape.holds === "list" && Array.isArray(value))
      value.forEach((schema, index) => found.push({ schema, pointer: appendPointer(at, index), sameInstance }));
    else if (shape.holds === "map" && isRecord(value))
      for (const [key, schema] of Object.entries(value))
        found.push({ schema, pointer: appendPointer(at, key), sameInstance });
  }
  return found;
}

/** Visits `root` and every subschema below it, depth first, in document order. */
export function walkSchema(root: unknown, visit: (schema: unknown, pointer: string) => void, pointer = ""): void {
  visit(root, pointer);
  for (const child of subschemasOf(root, pointer)) walkSchema(child.schema, visit, child.pointer);
}
