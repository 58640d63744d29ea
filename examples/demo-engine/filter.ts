/**
 * Compiles a §8 filter tree into a predicate over document metadata, checking every leaf
 * against the advertised field types: unknown field, wrong value type or an operator the
 * field type does not admit is -32602 naming `filter.<field>`; an operator outside the
 * advertised set is -32005.
 */
import { invalidParams, optionUnsupported } from "../../runtime/errors.js";

export type FieldType = "keyword" | "text" | "int" | "float" | "bool" | "date";
export type FilterOperator = "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "in" | "nin" | "contains" | "exists";
export type Metadata = Readonly<Record<string, unknown>>;
export type Predicate = (meta: Metadata) => boolean;

export const FILTER_OPERATORS: readonly FilterOperator[] = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "exists"];

const ORDERED_TYPES: ReadonlySet<FieldType> = new Set(["int", "float", "date"]);
const RFC3339 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?$/;

export interface FilterSchema {
  fields: Readonly<Record<string, FieldType>>;
  operators: readonly FilterOperator[];
}

export function compileFilter(node: unknown, schema: FilterSchema, path = "filter"): Predicate {
  if (!isObject(node)) throw invalidParams(path, "a filter node must be an object");
  if ("and" in node || "or" in node) {
    const combinator = "and" in node ? "and" : "or";
    const children = node[combinator];
    if (!Array.isArray(children) || children.length === 0) {
      throw invalidParams(`${path}.${combinator}`, "must be a non-empty array (§8)");
    }
    const predicates = children.map((child, index) => compileFilter(child, schema, `${path}.${combinator}.${index}`));
    return combinator === "and"
      ? (meta) => predicates.every((predicate) => predicate(meta))
      : (meta) => predicates.some((predicate) => predicate(meta));
  }
  if ("not" in node) {
    const inner = compileFilter(node.not, schema, `${path}.not`);
    return (meta) => !inner(meta);
  }
  return compileLeaf(node, schema, path);
}

function compileLeaf(node: Record<string, unknown>, schema: FilterSchema, path: string): Predicate {
  const { field, op, value } = node;
  if (typeof field !== "string") throw invalidParams(`${path}.field`, "a filter leaf needs a string `field`");
  const type = schema.fields[field];
  const at = `filter.${field}`;
  if (type === undefined) throw invalidParams(at, `field ${JSON.stringify(field)} is not an advertised filter field`);
  if (typeof op !== "string" || !(FILTER_OPERATORS as readonly string[]).includes(op)) {
    throw invalidParams(`${path}.op`, `unknown operator ${JSON.stringify(op)}`);
  }
  const operator = op as FilterOperator;
  if (!schema.operators.includes(operator)) throw optionUnsupported(`filter.op.${operator}`, `operator ${operator} is not advertised`);
  const read = (meta: Metadata): unknown => meta[field];

  switch (operator) {
    case "exists": {
      if (typeof value !== "boolean") throw invalidParams(at, "exists takes a boolean");
      return (meta) => (read(meta) !== undefined) === value;
    }
    case "eq":
    case "ne": {
      const expected = comparable(value, type, at);
      const equals = (meta: Metadata): boolean => comparableStored(read(meta), type) === expected;
      return operator === "eq" ? equals : (meta) => !equals(meta);
    }
    case "in":
    case "nin": {
      if (!Array.isArray(value)) throw invalidParams(at, `${operator} takes an array of scalars`);
      const members = new Set(value.map((member) => comparable(member, type, at)));
      const isMember = (meta: Metadata): boolean => {
        const stored = comparableStored(read(meta), type);
        return stored !== undefined && members.has(stored);
      };
      return operator === "in" ? isMember : (meta) => !isMember(meta);
    }
    case "contains": {
      if (type !== "text") throw invalidParams(at, `contains applies to text fields, not ${type}`);
      if (typeof value !== "string") throw invalidParams(at, "contains on a text field takes a string");
      return (meta) => {
        const stored = read(meta);
        return typeof stored === "string" && stored.includes(value);
      };
    }
    default: {
      if (!ORDERED_TYPES.has(type)) throw invalidParams(at, `${operator} applies to int, float and date fields, not ${type}`);
      const bound = comparable(value, type, at) as number;
      return (meta) => {
        const stored = comparableStored(read(meta), type);
        return typeof stored === "number" && compareOrdered(operator, stored, bound);
      };
    }
  }
}

function compareOrdered(operator: FilterOperator, stored: number, bound: number): boolean {
  switch (operator) {
    case "gt":
      return stored > bound;
    case "gte":
      return stored >= bound;
    case "lt":
      return stored < bound;
    default:
      return stored <= bound;
  }
}

/** A request value as the primitive it compares as; dates become epoch milliseconds (§4.6). */
function comparable(value: unknown, type: FieldType, at: string): string | number | boolean {
  switch (type) {
    case "keyword":
    case "text":
      if (typeof value === "string") return value;
      break;
    case "int":
      if (Number.isSafeInteger(value)) return value as number;
      break;
    case "float":
      if (typeof value === "number" && Number.isFinite(value)) return value;
      break;
    case "bool":
      if (typeof value === "boolean") return value;
      break;
    case "date": {
      const epoch = toEpochMs(value);
      if (epoch !== undefined) return epoch;
      break;
    }
  }
  throw invalidParams(at, `value ${JSON.stringify(value)} does not fit a ${type} field`);
}

/** A stored metadata value as the same primitive; values of the wrong type compare as absent. */
function comparableStored(value: unknown, type: FieldType): string | number | boolean | undefined {
  if (type === "date") return toEpochMs(value);
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : undefined;
}

function toEpochMs(value: unknown): number | undefined {
  if (Number.isSafeInteger(value)) return value as number;
  if (typeof value !== "string" || !RFC3339.test(value)) return undefined;
  const epoch = Date.parse(value);
  return Number.isNaN(epoch) ? undefined : epoch;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
