/**
 * A typed builder for §8 filter trees. What it builds is plain JSON, structurally the
 * generated `FilterClause`, so it goes straight into `retrieve({ filter })`. Typed by a
 * field table (`filterBuilder<{ year: "int"; lang: "keyword" }>()`, or the `filter.fields` a
 * server advertises, `as const`), a misspelt field, a value of the wrong type or an ordered
 * comparison on a keyword does not compile; untyped (`filter`), any field and scalar goes.
 */
import type { FieldType } from "./validate.js";

/** A value a filter leaf compares with. */
export type FilterScalar = string | number | boolean;

/** A field table: field name -> §8 field type. */
export type FilterFields = Readonly<Record<string, FieldType>>;

/** A leaf (§8): one field, one operator, a value whose JSON type the operator fixes. */
export interface FilterLeaf {
  field: string;
  op: "eq" | "ne" | "gt" | "gte" | "lt" | "lte" | "in" | "nin" | "contains" | "exists";
  value: FilterScalar | FilterScalar[];
}

/** A filter tree node: a leaf or a combinator, nesting arbitrarily (§8). */
export type FilterNode = FilterLeaf | { and: FilterNode[] } | { or: FilterNode[] } | { not: FilterNode };

/** The JSON type a field of type `T` takes (§4.6: a date is an RFC 3339 string or epoch milliseconds). */
export type FieldValue<T extends FieldType> = T extends "int" | "float"
  ? number
  : T extends "bool"
    ? boolean
    : T extends "date"
      ? string | number
      : string;

type FieldsOf<F extends FilterFields, Allowed extends FieldType> = {
  [K in keyof F & string]: [Extract<F[K], Allowed>] extends [never] ? never : K;
}[keyof F & string];

/** Fields `gt`, `gte`, `lt` and `lte` apply to (§8: int, float, date). */
export type OrderedField<F extends FilterFields> = FieldsOf<F, "int" | "float" | "date">;
/** Fields `contains` applies to (§8: text, or an array-valued keyword field). */
export type ContainableField<F extends FilterFields> = FieldsOf<F, "text" | "keyword">;

/** Non-empty, as §8 requires of `and` and `or`. */
type Children = [FilterNode, ...FilterNode[]];

/** Builds §8 filters typed by a field table: a field it lacks, or a value of the wrong type, does not compile. */
export interface FilterBuilder<F extends FilterFields> {
  /** The field equals the value. */
  eq<K extends keyof F & string>(field: K, value: FieldValue<F[K]>): FilterLeaf;
  /** The field differs from the value. */
  ne<K extends keyof F & string>(field: K, value: FieldValue<F[K]>): FilterLeaf;
  /** The field is greater than the value (int, float or date fields). */
  gt<K extends OrderedField<F>>(field: K, value: FieldValue<F[K]>): FilterLeaf;
  /** The field is at least the value (int, float or date fields). */
  gte<K extends OrderedField<F>>(field: K, value: FieldValue<F[K]>): FilterLeaf;
  /** The field is less than the value (int, float or date fields). */
  lt<K extends OrderedField<F>>(field: K, value: FieldValue<F[K]>): FilterLeaf;
  /** The field is at most the value (int, float or date fields). */
  lte<K extends OrderedField<F>>(field: K, value: FieldValue<F[K]>): FilterLeaf;
  /** The field equals one of the values. */
  in<K extends keyof F & string>(field: K, values: readonly FieldValue<F[K]>[]): FilterLeaf;
  /** The field equals none of the values. */
  nin<K extends keyof F & string>(field: K, values: readonly FieldValue<F[K]>[]): FilterLeaf;
  /** The field (text or keyword) contains the string. */
  contains<K extends ContainableField<F>>(field: K, value: string): FilterLeaf;
  /** The field is present (`true`, the default) or absent (`false`). */
  exists(field: keyof F & string, present?: boolean): FilterLeaf;
  /** Every child matches. */
  and(...children: Children): FilterNode;
  /** At least one child matches. */
  or(...children: Children): FilterNode;
  /** The child does not match. */
  not(child: FilterNode): FilterNode;
}

/** A builder typed by a field table; without one, every field and scalar is accepted. */
export function filterBuilder<F extends FilterFields = Record<string, FieldType>>(): FilterBuilder<F> {
  return untypedBuilder;
}

const leaf = (field: string, op: FilterLeaf["op"], value: FilterLeaf["value"]): FilterLeaf => {
  if (typeof field !== "string" || field === "") throw new TypeError("a filter field must be a non-empty string");
  return { field, op, value };
};

/** A fresh array per node, so later changes to the caller's array do not alter the tree. */
const list = (values: readonly FilterScalar[]): FilterScalar[] => [...values];

const combine = (kind: "and" | "or", children: readonly FilterNode[]): FilterNode => {
  // §8: an empty and/or is -32602; refusing it here keeps the error next to the mistake.
  if (children.length === 0) throw new TypeError(`"${kind}" needs at least one child (§8)`);
  return kind === "and" ? { and: [...children] } : { or: [...children] };
};

const untypedBuilder: FilterBuilder<Record<string, FieldType>> = {
  eq: (field, value) => leaf(field, "eq", value),
  ne: (field, value) => leaf(field, "ne", value),
  gt: (field, value) => leaf(field, "gt", value),
  gte: (field, value) => leaf(field, "gte", value),
  lt: (field, value) => leaf(field, "lt", value),
  lte: (field, value) => leaf(field, "lte", value),
  in: (field, values) => leaf(field, "in", list(values)),
  nin: (field, values) => leaf(field, "nin", list(values)),
  contains: (field, value) => leaf(field, "contains", value),
  exists: (field, present = true) => leaf(field, "exists", present),
  and: (...children) => combine("and", children),
  or: (...children) => combine("or", children),
  not: (child) => ({ not: child }),
};

/** The untyped builder: `filter.and(filter.eq("lang", "en"), filter.gte("year", 2020))`. */
export const filter: FilterBuilder<Record<string, FieldType>> = untypedBuilder;
