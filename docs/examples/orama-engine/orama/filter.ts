/**
 * The §8 filter compiled to Orama's `where`. The runtime has already checked the tree against
 * the advertised fields and operators (-32602, -32005) when a request reaches the engine; this
 * module says what each operator means on each field, and refuses with -32602 naming the field
 * (`error.data.field`) what Orama's indexes cannot answer exactly:
 *
 * - `lang` is an Orama `enum` (one keyword): eq, ne, in, nin; no `contains`.
 * - `tags` is an `enum[]` (a list of keywords): contains, in (any tag in the set), nin (no tag
 *   in it); no `eq`/`ne`, which would compare the whole list.
 * - `year` (int) and `published` (date, as epoch milliseconds) are `number`s: eq, ne, the
 *   ordered four, in, nin.
 * - `exists` is not offered at all: Orama has no query for "has this property", so the engine
 *   does not advertise it and the runtime answers -32005.
 *
 * `ne`, `nin` and `not` become Orama's `not`, so a document without the field matches them.
 */
import { invalidParams, validateFilter } from "@rcp-gen/runtime";

/** The filterable fields and their §8 types, as advertised in `filter.fields`. */
export const FILTER_FIELDS = { lang: "keyword", tags: "keyword", year: "int", published: "date" } as const;
/** The operators advertised in `filter.operators`: every §8 one but `exists`. */
export const FILTER_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains"] as const;

type Field = keyof typeof FILTER_FIELDS;
type Scalar = string | number | boolean;
interface Clause {
  field: Field;
  op: (typeof FILTER_OPERATORS)[number];
  value: Scalar | Scalar[];
}
type FilterNode = Clause | { and: FilterNode[] } | { or: FilterNode[] } | { not: FilterNode };

/** An Orama `where` clause (its own types are tied to a schema type parameter; this is the JSON it takes). */
export type OramaWhere = { [key: string]: unknown };

const RFC3339 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?$/;

export function toOramaWhere(filter: unknown): OramaWhere {
  const tree = validateFilter(filter as FilterNode, { fields: FILTER_FIELDS, operators: FILTER_OPERATORS });
  return compile(tree);
}

function compile(node: FilterNode): OramaWhere {
  if ("and" in node) return { and: node.and.map(compile) };
  if ("or" in node) return { or: node.or.map(compile) };
  if ("not" in node) return { not: compile(node.not) };
  return node.field === "tags" ? compileTags(node) : compileSingle(node);
}

/** `lang`, `year`, `published`: one value per document. */
function compileSingle({ field, op, value }: Clause): OramaWhere {
  const at = `filter.${field}`;
  const one = (member: Scalar) => (field === "published" ? epochMs(member, at) : member);
  const isOne = (member: Scalar): OramaWhere => ({ [field]: { eq: one(member) } });
  const members = () => (value as Scalar[]).map(one);
  switch (op) {
    case "eq":
      return isOne(value as Scalar);
    case "ne":
      return { not: isOne(value as Scalar) };
    case "in":
    case "nin": {
      // An enum answers set membership itself; a number index answers it as one eq per member.
      const member = field === "lang" ? { [field]: { in: members() } } : { or: members().map((m) => isOne(m)) };
      return op === "in" ? member : { not: member };
    }
    case "contains":
      throw invalidParams(at, `${field} holds one value; contains applies to the list field tags`);
    default:
      return { [field]: { [op]: one(value as Scalar) } };
  }
}

/** `tags`: a list of keywords, matched element by element. */
function compileTags({ op, value }: Clause): OramaWhere {
  switch (op) {
    case "contains":
      return { tags: { containsAny: [value] } };
    case "in":
      return { tags: { containsAny: value } };
    case "nin":
      return { not: { tags: { containsAny: value } } };
    default:
      throw invalidParams(
        "filter.tags",
        `tags holds a list of keywords: Orama matches its elements (contains, in, nin), not the list as a whole (${op})`,
      );
  }
}

/** A §4.6 date as epoch milliseconds, the number Orama indexes `published` as. */
export function epochMs(value: unknown, at: string): number {
  if (Number.isSafeInteger(value)) return value as number;
  const parsed = typeof value === "string" && RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(parsed))
    throw invalidParams(at, `${JSON.stringify(value)} is neither an RFC 3339 date nor epoch milliseconds`);
  return parsed;
}
