/**
 * Compiles a §8 filter tree into a predicate over document metadata. The runtime's
 * validator checks the tree against the advertised fields and operators first (-32602 /
 * -32005); this module only decides what each operator means for the demo's field types.
 */
import { FILTER_OPERATORS, invalidParams, validateFilter } from "@rcp-gen/runtime";

export type FieldType = "keyword" | "text" | "int" | "float" | "bool" | "date";
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export type Metadata = Readonly<Record<string, unknown>>;
export type Predicate = (meta: Metadata) => boolean;

export { FILTER_OPERATORS };

export interface FilterSchema {
  fields: Readonly<Record<string, FieldType>>;
  operators: readonly FilterOperator[];
}

interface Leaf {
  field: string;
  op: FilterOperator;
  value: unknown;
}

type Node = Leaf | { and: Node[] } | { or: Node[] } | { not: Node };

const RFC3339 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?$/;

export function compileFilter(tree: unknown, schema: FilterSchema): Predicate {
  return compileNode(validateFilter(tree as Node, schema), schema);
}

function compileNode(node: Node, schema: FilterSchema): Predicate {
  if ("and" in node) {
    const children = node.and.map((child) => compileNode(child, schema));
    return (meta) => children.every((child) => child(meta));
  }
  if ("or" in node) {
    const children = node.or.map((child) => compileNode(child, schema));
    return (meta) => children.some((child) => child(meta));
  }
  if ("not" in node) {
    const inner = compileNode(node.not, schema);
    return (meta) => !inner(meta);
  }
  return compileLeaf(node, schema.fields[node.field]!);
}

/** An absent field matches only `ne`, `nin` and `exists: false`. */
function compileLeaf({ field, op, value }: Leaf, type: FieldType): Predicate {
  const at = `filter.${field}`;
  const read = (meta: Metadata): string | number | boolean | undefined => asComparable(meta[field], type);
  switch (op) {
    case "exists":
      return (meta) => (meta[field] !== undefined) === value;
    case "eq":
    case "ne": {
      const expected = requestValue(value, type, at);
      return op === "eq" ? (meta) => read(meta) === expected : (meta) => read(meta) !== expected;
    }
    case "in":
    case "nin": {
      const members = new Set((value as unknown[]).map((member) => requestValue(member, type, at)));
      const isMember = (meta: Metadata): boolean => members.has(read(meta)!);
      return op === "in" ? isMember : (meta) => !isMember(meta);
    }
    case "contains":
      return (meta) => {
        const stored = meta[field];
        if (Array.isArray(stored)) return stored.includes(value);
        return type === "text" && typeof stored === "string" && typeof value === "string" && stored.includes(value);
      };
    default: {
      const bound = requestValue(value, type, at);
      return (meta) => {
        const stored = read(meta);
        return typeof stored === "number" && typeof bound === "number" && compareOrdered(op, stored, bound);
      };
    }
  }
}

function compareOrdered(op: FilterOperator, stored: number, bound: number): boolean {
  if (op === "gt") return stored > bound;
  if (op === "gte") return stored >= bound;
  if (op === "lt") return stored < bound;
  return stored <= bound;
}

/** Dates compare as epoch milliseconds, whichever §4.6 encoding the request used. */
function requestValue(value: unknown, type: FieldType, at: string): string | number | boolean {
  if (type !== "date") return value as string | number | boolean;
  const epoch = toEpochMs(value);
  if (epoch === undefined)
    throw invalidParams(at, `${JSON.stringify(value)} is neither an RFC 3339 date nor epoch milliseconds`);
  return epoch;
}

function asComparable(stored: unknown, type: FieldType): string | number | boolean | undefined {
  if (type === "date") return toEpochMs(stored);
  return typeof stored === "string" || typeof stored === "number" || typeof stored === "boolean" ? stored : undefined;
}

function toEpochMs(value: unknown): number | undefined {
  if (Number.isSafeInteger(value)) return value as number;
  if (typeof value !== "string" || !RFC3339.test(value)) return undefined;
  const epoch = Date.parse(value);
  return Number.isNaN(epoch) ? undefined : epoch;
}
