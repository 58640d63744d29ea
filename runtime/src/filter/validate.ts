/**
 * The §8 metadata filter validator: checks a filter tree against the fields and
 * operators a server advertises. Standalone: it needs only the tree and the advertised
 * `filter` capability, so a server can also call it before compiling a filter.
 *
 * Error paths (`error.data.field`):
 * - a problem with one field's clause (unadvertised field, value of the wrong JSON type,
 *   operator not applicable to the field type) names the field: `filter.<field>`, as in
 *   §12.1's `filter.year`;
 * - a structural problem names the node's position in the tree: `filter.and.1.or.0`,
 *   `filter.and` for an empty combinator.
 * An operator outside the advertised set is -32005 with `data.option` `filter.op`,
 * `data.value` the operator and `data.field` `filter.<field>`. A tree of more than
 * `maxClauses` nodes is -32602 naming the filter itself: each node costs work for every
 * candidate document, so the cap bounds what one request can make a server evaluate (§15.5).
 */
import { RcpError, ErrorCode, invalidParams } from "../protocol/errors.js";
import { isRecord } from "../protocol/dotted-paths.js";

/** Operators of §8, usable when a server advertises no `filter.operators`. */
export const FILTER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "exists"] as const;

/** The type of a filterable field, which fixes its values and operators (§8). */
export type FieldType = "keyword" | "text" | "int" | "float" | "bool" | "date" | "geo";

/** The `filter` capability a server advertises (§8): its fields and operators. */
export interface AdvertisedFilter {
  /** Field names, or field name -> type (§8). Absent means no field may be filtered. */
  fields?: readonly string[] | Readonly<Record<string, string>>;
  operators?: readonly string[];
}

const MAX_DEPTH = 32;
/** Nodes (clauses and combinators) a filter may have unless the server sets `limits.maxFilterClauses`. */
export const DEFAULT_MAX_FILTER_CLAUSES = 1024;
const ORDERED_TYPES = new Set(["int", "float", "date"]);

/** Throws an RcpError (-32602 or -32005) for the first problem found; returns the tree otherwise. */
export function validateFilter<T>(
  tree: T,
  advertised: AdvertisedFilter,
  path = "filter",
  maxClauses = DEFAULT_MAX_FILTER_CLAUSES,
): T {
  const walk: Walk = {
    root: path,
    fieldTypes: fieldTypeTable(advertised.fields),
    operators: new Set<string>(advertised.operators ?? FILTER_OPERATORS),
    nodesLeft: maxClauses,
    maxClauses,
  };
  visit(tree, path, 0, walk);
  return tree;
}

interface Walk {
  readonly root: string;
  readonly fieldTypes: Map<string, string | undefined>;
  readonly operators: Set<string>;
  readonly maxClauses: number;
  nodesLeft: number;
}

function visit(node: unknown, at: string, depth: number, walk: Walk): void {
  if (!isRecord(node)) throw invalidParams(at, "a filter node must be an object");
  if (depth > MAX_DEPTH) throw invalidParams(at, `filter nesting deeper than ${MAX_DEPTH}`);
  walk.nodesLeft -= 1;
  if (walk.nodesLeft < 0) throw invalidParams(walk.root, `a filter of more than ${walk.maxClauses} clauses`);
  for (const combinator of ["and", "or"] as const) {
    if (!(combinator in node)) continue;
    const children = node[combinator];
    if (!Array.isArray(children)) throw invalidParams(`${at}.${combinator}`, `"${combinator}" must be an array`);
    if (children.length === 0) throw invalidParams(`${at}.${combinator}`, `an empty "${combinator}" is not allowed`);
    if (children.length > walk.nodesLeft)
      throw invalidParams(walk.root, `a filter of more than ${walk.maxClauses} clauses`);
    children.forEach((child, i) => visit(child, `${at}.${combinator}.${i}`, depth + 1, walk));
    return;
  }
  if ("not" in node) {
    visit(node.not, `${at}.not`, depth + 1, walk);
    return;
  }
  checkClause(node, at, walk.root, walk.fieldTypes, walk.operators);
}

function checkClause(
  clause: Record<string, unknown>,
  at: string,
  root: string,
  fieldTypes: Map<string, string | undefined>,
  operators: Set<string>,
): void {
  const { field, op, value } = clause;
  if (typeof field !== "string" || field === "") throw invalidParams(`${at}.field`, "a clause needs a field name");
  const fieldPath = `${root}.${field}`;
  if (!fieldTypes.has(field)) throw invalidParams(fieldPath, `field "${field}" is not an advertised filter field`);
  if (typeof op !== "string") throw invalidParams(`${at}.op`, "a clause needs an operator");
  if (!operators.has(op)) {
    throw new RcpError(ErrorCode.OptionUnsupported, `Option unsupported: filter operator "${op}"`, {
      option: "filter.op",
      value: op,
      field: fieldPath,
    });
  }
  const problem = clauseProblem(op, value, fieldTypes.get(field));
  if (problem) throw invalidParams(fieldPath, problem);
}

/** Why `value` does not suit `op` on a field of `type` (undefined type: only the shape is checked). */
function clauseProblem(op: string, value: unknown, type: string | undefined): string | undefined {
  switch (op) {
    case "eq":
    case "ne":
    case "contains":
      if (!isScalar(value)) return `"${op}" needs a string, number or boolean value`;
      if (op === "contains" && type !== undefined && type !== "text" && type !== "keyword") {
        return `"contains" applies to text fields or array-valued keyword fields, not ${type}`;
      }
      return valueTypeProblem(value, type);
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      if (type !== undefined && !ORDERED_TYPES.has(type))
        return `"${op}" applies to int, float or date fields, not ${type}`;
      if (typeof value !== "number" && !(type === "date" && typeof value === "string")) {
        return `"${op}" needs a number${type === "date" ? " or a date string" : ""}`;
      }
      return valueTypeProblem(value, type);
    case "in":
    case "nin":
      if (!Array.isArray(value) || !value.every(isScalar)) return `"${op}" needs an array of scalars`;
      for (const member of value) {
        const problem = valueTypeProblem(member, type);
        if (problem) return problem;
      }
      return undefined;
    case "exists":
      return typeof value === "boolean" ? undefined : `"exists" needs a boolean value`;
    default:
      return undefined; // an advertised operator this validator does not know: accepted as is
  }
}

function valueTypeProblem(value: unknown, type: string | undefined): string | undefined {
  switch (type) {
    case "keyword":
    case "text":
      return typeof value === "string" ? undefined : `a ${type} field takes string values`;
    case "int":
      return Number.isInteger(value) ? undefined : "an int field takes integer values";
    case "float":
      return typeof value === "number" ? undefined : "a float field takes numeric values";
    case "bool":
      return typeof value === "boolean" ? undefined : "a bool field takes boolean values";
    case "date":
      return typeof value === "string" || Number.isInteger(value)
        ? undefined
        : "a date field takes an RFC 3339 string or epoch milliseconds";
    default:
      return undefined;
  }
}

function isScalar(value: unknown): boolean {
  return (
    typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))
  );
}

function fieldTypeTable(fields: AdvertisedFilter["fields"]): Map<string, string | undefined> {
  const table = new Map<string, string | undefined>();
  if (Array.isArray(fields)) for (const name of fields as readonly string[]) table.set(name, undefined);
  else if (fields) for (const [name, type] of Object.entries(fields)) table.set(name, type);
  return table;
}
