/**
 * fast-check values driven by a JSON Schema node: mostly values of the node's shape (with
 * optional members present or not, and 0-2 unknown extra members, which §4.6 says survive),
 * sometimes a value of any other kind, so a serializer is checked on everything it may meet.
 * Numbers include NaN, ±Infinity and -0; strings include every character needing an escape.
 */
import fc, { type Arbitrary } from "fast-check";
import { type SchemaIndex, nodeBase, type SchemaNode } from "./compiler/schema-index.js";

const MAX_DEPTH = 5;

const ESCAPES = [
  '"',
  "\\",
  "\n",
  "\r",
  "\t",
  "\b",
  "\f",
  "\u0000",
  "\u001f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udc00",
  "😀",
  "null",
];
const strings: Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.array(fc.constantFrom(...ESCAPES), { maxLength: 4 }).map((parts) => parts.join("")),
);
const numbers: Arbitrary<number> = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0),
);
const anyValue: Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  numbers,
  fc.constant(undefined),
  fc.array(numbers, { maxLength: 3 }),
  fc.dictionary(strings, numbers, { maxKeys: 2 }),
);

export function schemaArbitrary(index: SchemaIndex, ref: string): Arbitrary<unknown> {
  const located = index.resolve(ref, index.rootBase);
  return shaped(index, located.node, located.base, 0);
}

function shaped(index: SchemaIndex, node: SchemaNode, base: string, depth: number): Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 1 });
  const own = nodeBase(node, base);
  const exact = exactly(index, node, own, depth);
  return fc.oneof({ weight: 9, arbitrary: exact }, { weight: 1, arbitrary: anyValue });
}

function exactly(index: SchemaIndex, node: SchemaNode, base: string, depth: number): Arbitrary<unknown> {
  if (typeof node.$ref === "string") {
    const target = index.resolve(node.$ref, base);
    return shaped(index, target.node, target.base, depth + 1);
  }
  const branches = (node.anyOf ?? node.oneOf) as SchemaNode[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => shaped(index, branch, base, depth + 1)));
  if ("const" in node) return fc.constant(node.const);
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === "string" ? [node.type] : [];
  if (types.length === 0) return node.properties ? objectOf(index, node, base, depth) : anyValue;
  return fc.oneof(...types.map((type) => ofType(index, type, node, base, depth)));
}

function ofType(index: SchemaIndex, type: string, node: SchemaNode, base: string, depth: number): Arbitrary<unknown> {
  switch (type) {
    case "string":
      return strings;
    case "number":
      return numbers;
    case "integer":
      return fc.integer();
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = node.items as SchemaNode | undefined;
      return fc.array(items ? shaped(index, items, base, depth + 1) : anyValue, { maxLength: 3 });
    }
    case "object":
      return objectOf(index, node, base, depth);
    default:
      return anyValue;
  }
}

function objectOf(index: SchemaIndex, node: SchemaNode, base: string, depth: number): Arbitrary<unknown> {
  const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
  const required = new Set((node.required ?? []) as string[]);
  const known = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, schema]) => [key, shaped(index, schema, base, depth + 1)]),
    ),
    { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) },
  );
  const extra = fc.dictionary(fc.oneof(strings, fc.constantFrom("__proto__", "toString", "0")), anyValue, {
    maxKeys: 2,
  });
  // Extra members first or last: member order is part of what the text must reproduce.
  return fc
    .tuple(known, extra, fc.boolean())
    .map(([members, extras, extrasFirst]) => (extrasFirst ? { ...extras, ...members } : { ...members, ...extras }));
}
