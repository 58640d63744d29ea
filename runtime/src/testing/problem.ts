/**
 * One readable problem with a frame: where (a JavaScript-style path from the frame's root,
 * `params.rerank.topN`, `result.hits[0].score`, `[1].id` in a batch), what was expected and
 * what was found. The message is the one line a test failure shows.
 */

export interface FrameProblem {
  /** `params.query[0].text`; `(frame)` for the frame itself. */
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  /** `<path>: expected <expected>, found <found>` */
  readonly message: string;
}

/** A member name or an array index on the way to a problem. */
export type PathSegment = string | number;

/** `whole` names the root when the path is empty: the frame, or a recorded stream. */
export function problem(
  path: readonly PathSegment[],
  expected: string,
  found: string,
  whole = "(frame)",
): FrameProblem {
  const shown = formatPath(path, whole);
  return { path: shown, expected, found, message: `${shown}: expected ${expected}, found ${found}` };
}

export function formatPath(path: readonly PathSegment[], whole = "(frame)"): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text === "" ? whole : text;
}

const MAX_SHOWN = 40;

/** A found value as a test failure shows it: primitives as JSON (shortened), containers by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) {
    if (value.length === 0) return "an empty array";
    return value.length === 1 ? "an array of 1 item" : `an array of ${value.length} items`;
  }
  if (typeof value === "object" && value !== null) return "an object";
  const json = JSON.stringify(value) ?? typeof value;
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN - 1)}…` : json;
}

/** The JSON kind of a value, as JSON Schema's `type` names it (integers are also numbers). */
export function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const articles: Readonly<Record<string, string>> = {
  integer: "an integer",
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  boolean: "a boolean",
  null: "null",
};

export function describeTypes(types: readonly string[]): string {
  return listOr(types.map((type) => articles[type] ?? type));
}

/** `a`, `a or b`, `a, b or c` */
export function listOr(items: readonly string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} or ${unique[unique.length - 1]}`;
}
