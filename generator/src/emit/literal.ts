/**
 * Writes plain data as a TypeScript object literal, objects expanded one member per line, laid
 * out as prettier would (layout/syntax.ts); a `Reference` is written as an identifier (a
 * validator, an imported constant). Undefined members are left out.
 */
import type { Doc } from "../plugin/layout/doc.js";
import { arrayLiteral, expandedObject, numberLiteral, propertyKey, stringLiteral } from "../plugin/layout/syntax.js";

export class Reference {
  constructor(readonly name: string) {}
}

export type LiteralValue =
  | string
  | number
  | boolean
  | null
  | Reference
  | readonly LiteralValue[]
  | { readonly [key: string]: LiteralValue | undefined };

type LiteralRecord = { readonly [key: string]: LiteralValue | undefined };

export function literal(value: LiteralValue): Doc {
  if (value instanceof Reference) return value.name;
  if (isList(value, 0)) {
    const items = value;
    return arrayLiteral(items.map(literal), {
      broken: items.length > 1 && (items.every((item) => isList(item, 2)) || items.every((item) => isRecord(item, 2))),
      numbers: items.length > 1 && items.every((item) => typeof item === "number"),
    });
  }
  if (isRecord(value, 0))
    return expandedObject(presentMembers(value).map(([key, item]) => [propertyName(key), literal(item)] as const));
  return typeof value === "number"
    ? numberLiteral(value)
    : typeof value === "string"
      ? stringLiteral(value)
      : String(value);
}

function presentMembers(value: LiteralRecord): [string, LiteralValue][] {
  return Object.entries(value).filter((entry): entry is [string, LiteralValue] => entry[1] !== undefined);
}

/** An array of at least `size` items. */
function isList(value: LiteralValue, size: number): value is readonly LiteralValue[] {
  return Array.isArray(value) && value.length >= size;
}

/** An object (not a reference) of at least `size` members. */
function isRecord(value: LiteralValue, size: number): value is LiteralRecord {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Reference) &&
    presentMembers(value as LiteralRecord).length >= size
  );
}

/** A quoted `"__proto__":` in a literal sets the prototype instead of a property; a computed key defines it. */
function propertyName(key: string): Doc {
  return key === "__proto__" ? `[${stringLiteral(key)}]` : propertyKey(key);
}
