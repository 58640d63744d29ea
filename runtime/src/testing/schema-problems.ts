/**
 * ajv's errors as the few problems a person means. A precompiled validator stops at its first
 * failure, so its error list is one failure seen through every `oneOf`/`anyOf`/`if` around
 * it: each alternative that was tried leaves its own error. The alternative that was meant
 * is the one whose kind of value matched (`query` is an object, so not the string branch) and
 * whose discriminator matched (a `const` on a member); the rest is noise. To find further
 * problems, the offending value is patched with a placeholder of the expected shape and the
 * data validated again, reporting only problems outside paths already reported.
 */
import type { ValidationIssue, ShapeCheck } from "../protocol/descriptor.js";
import { pointerKeys } from "../protocol/dotted-paths.js";
import { issueKeys, keysIn } from "../protocol/validation-issue.js";
import {
  describeTypes,
  describeValue,
  jsonKind,
  listOr,
  problem,
  type FrameProblem,
  type PathSegment,
} from "./problem.js";

const MAX_PASSES = 12;
const COMPOSITES = new Set(["anyOf", "oneOf", "if", "allOf"]);

interface MeantIssue {
  /** JSON pointer tokens of the value the problem is about. */
  readonly pointer: readonly PathSegment[];
  readonly expected: string;
  /** What `found` shows; by default the value at `pointer`. */
  readonly found?: string;
  /** The value missed a `const` or `enum`. */
  readonly choice?: boolean;
  /** A placeholder that satisfies what was expected, to look past this problem. */
  readonly patch: { kind: "set"; value: unknown } | { kind: "none" };
}

/**
 * Every problem `validator` (a generated validator, or any ajv function) finds in `data`, one
 * per path, each naming its path from `root` (e.g. `["capabilities", "embed"]`); [] when valid.
 */
export function schemaProblems(validator: ShapeCheck, data: unknown, root: readonly PathSegment[]): FrameProblem[] {
  const problems: FrameProblem[] = [];
  const reported: PathSegment[][] = [];
  let current = data;
  const seen = new Set<string>();
  for (let pass = 0; pass < MAX_PASSES && !passes(validator, current); pass++) {
    const meant = meantIssue(validator.errors ?? [], current);
    if (meant === undefined) break;
    if (!reported.some((path) => isWithin(meant.pointer, path))) {
      const found = meant.found ?? describeValue(valueAt(current, meant.pointer));
      problems.push(problem([...root, ...meant.pointer], meant.expected, found));
      // Patching a nested choice (a block's `type`) may select another branch for its whole
      // object, whose demands would be consequences of the patch, not problems of the data.
      reported.push(meant.choice && meant.pointer.length > 1 ? meant.pointer.slice(0, -1) : [...meant.pointer]);
    }
    const key = `${meant.pointer.join("/")} ${meant.expected}`;
    if (meant.patch.kind === "none" || seen.has(key)) break;
    seen.add(key);
    current = withValueAt(current, meant.pointer, meant.patch.value);
  }
  if (problems.length === 0 && !passes(validator, data))
    problems.push(problem(root, "a value matching the schema", describeValue(data)));
  return problems;
}

/** A recursive schema recurses with the data; input too deep to validate is reported, not thrown. */
function passes(validator: ShapeCheck, data: unknown): boolean {
  try {
    return validator(data);
  } catch (thrown) {
    if (thrown instanceof RangeError) return false;
    throw thrown;
  }
}

function meantIssue(issues: readonly ValidationIssue[], data: unknown): MeantIssue | undefined {
  const leaves = issues.filter((issue) => !COMPOSITES.has(issue.keyword) || isAmbiguousOneOf(issue));
  if (leaves.length === 0) {
    const last = issues[issues.length - 1];
    return (
      last && {
        pointer: tokens(last.instancePath, data),
        expected: "a value matching the schema",
        patch: { kind: "none" },
      }
    );
  }
  // Alternatives whose kind of value did not even match (a string branch for an object) were not meant.
  const mismatched = leaves.filter((issue) => isKindMismatch(issue, data));
  const meant = leaves.filter((issue) => !mismatched.includes(issue));
  if (meant.length === 0) return mergedKinds(mismatched, data);
  // A `const`/`enum` miss beside other failures is a discriminator that picked another branch.
  const decisive = meant.some((issue) => !isChoice(issue)) ? meant.filter((issue) => !isChoice(issue)) : meant;
  const depth = Math.max(...decisive.map((issue) => pointerOf(issue, data).length));
  const deepest = decisive.filter((issue) => pointerOf(issue, data).length === depth);
  if (deepest.length > 1 && deepest.every((issue) => issue.keyword === "required"))
    return mergedRequired(deepest, data);
  return describeIssue(deepest[0]!, data);
}

/** oneOf fails without branch errors when more than one branch matched. */
function isAmbiguousOneOf(issue: ValidationIssue): boolean {
  return issue.keyword === "oneOf" && Array.isArray(issue.params.passingSchemas);
}

function isChoice(issue: ValidationIssue): boolean {
  return issue.keyword === "const" || issue.keyword === "enum";
}

function isKindMismatch(issue: ValidationIssue, data: unknown): boolean {
  const value = valueAt(data, tokens(issue.instancePath, data));
  if (issue.keyword === "type") return true;
  if (!isChoice(issue)) return false;
  const allowed = issue.keyword === "const" ? [issue.params.allowedValue] : asArray(issue.params.allowedValues);
  return !allowed.some((option) => sameKind(option, value));
}

function sameKind(a: unknown, b: unknown): boolean {
  const kind = (value: unknown) => (jsonKind(value) === "integer" ? "number" : jsonKind(value));
  return kind(a) === kind(b);
}

/** Every alternative wanted another kind of value: one line listing them all. */
function mergedKinds(issues: readonly ValidationIssue[], data: unknown): MeantIssue {
  const byPointer = new Map<string, ValidationIssue[]>();
  for (const issue of issues) byPointer.set(issue.instancePath, [...(byPointer.get(issue.instancePath) ?? []), issue]);
  // A branch that failed deeper matched the kind of every value above: it is the one meant.
  const depth = (group: readonly ValidationIssue[]) => tokens(group[0]!.instancePath, data).length;
  const group = [...byPointer.values()].sort((a, b) => depth(b) - depth(a) || b.length - a.length)[0]!;
  const types: string[] = [];
  const values: unknown[] = [];
  for (const issue of group) {
    if (issue.keyword === "type") types.push(...asArray(issue.params.type).map(String));
    else
      values.push(...(issue.keyword === "const" ? [issue.params.allowedValue] : asArray(issue.params.allowedValues)));
  }
  const expected = listOr([
    ...(types.length > 0 ? [describeTypes(types)] : []),
    ...values.map((value) => JSON.stringify(value)),
  ]);
  const placeholder = types.length > 0 ? placeholderOf(types[0]!) : values[0];
  return { pointer: tokens(group[0]!.instancePath, data), expected, patch: { kind: "set", value: placeholder } };
}

/** Alternatives each requiring a different member (`data` or `uri`): one line naming them. */
function mergedRequired(issues: readonly ValidationIssue[], data: unknown): MeantIssue {
  const members = issues.map((issue) => JSON.stringify(String(issue.params.missingProperty)));
  const first = String(issues[0]!.params.missingProperty);
  return {
    pointer: tokens(issues[0]!.instancePath, data),
    expected: `a member ${listOr(members)}`,
    found: "neither",
    patch: { kind: "set", value: { ...asRecord(valueAt(data, tokens(issues[0]!.instancePath, data))), [first]: null } },
  };
}

function describeIssue(issue: ValidationIssue, data: unknown): MeantIssue {
  const pointer = tokens(issue.instancePath, data);
  const params = issue.params;
  const set = (value: unknown) => ({ kind: "set", value }) as const;
  const value = valueAt(data, pointer);
  switch (issue.keyword) {
    case "type": {
      const types = asArray(params.type).map(String);
      return { pointer, expected: describeTypes(types), patch: set(placeholderOf(types[0]!)) };
    }
    case "required":
      return {
        pointer: [...pointer, String(params.missingProperty)],
        expected: "a value (required)",
        patch: set(null),
      };
    case "const":
      return { pointer, expected: JSON.stringify(params.allowedValue), choice: true, patch: set(params.allowedValue) };
    case "enum": {
      const allowed = asArray(params.allowedValues);
      return {
        pointer,
        expected: `one of ${allowed.map((option) => JSON.stringify(option)).join(", ")}`,
        choice: true,
        patch: set(allowed[0]),
      };
    }
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const limit = Number(params.limit);
      const nudge = issue.keyword === "exclusiveMinimum" ? 1 : issue.keyword === "exclusiveMaximum" ? -1 : 0;
      return { pointer, expected: `a number ${String(params.comparison)} ${limit}`, patch: set(limit + nudge) };
    }
    case "minLength":
      return {
        pointer,
        expected: `a string of at least ${plural(Number(params.limit), "character")}`,
        patch: set((typeof value === "string" ? value : "").padEnd(Number(params.limit), "x")),
      };
    case "maxLength":
      return {
        pointer,
        expected: `a string of at most ${plural(Number(params.limit), "character")}`,
        patch: set([...(typeof value === "string" ? value : "")].slice(0, Number(params.limit)).join("")),
      };
    case "minItems":
      return {
        pointer,
        expected: `at least ${plural(Number(params.limit), "item")}`,
        patch: set(
          [...asArray(value), ...Array<null>(Number(params.limit)).fill(null)].slice(
            0,
            Math.max(Number(params.limit), asArray(value).length),
          ),
        ),
      };
    case "maxItems":
      return {
        pointer,
        expected: `at most ${plural(Number(params.limit), "item")}`,
        patch: set(asArray(value).slice(0, Number(params.limit))),
      };
    case "minProperties":
      return {
        pointer,
        expected: `an object with at least ${plural(Number(params.limit), "member")}`,
        patch: { kind: "none" },
      };
    case "pattern":
      return { pointer, expected: `a string matching /${String(params.pattern)}/`, patch: { kind: "none" } };
    case "format":
      return { pointer, expected: `a string in the ${String(params.format)} format`, patch: { kind: "none" } };
    case "multipleOf":
      return { pointer, expected: `a multiple of ${String(params.multipleOf)}`, patch: { kind: "none" } };
    case "uniqueItems":
      return {
        pointer,
        expected: `unique items (items ${String(params.j)} and ${String(params.i)} are equal)`,
        patch: { kind: "none" },
      };
    case "dependentRequired":
      return {
        pointer: [...pointer, String(params.missingProperty)],
        expected: `a value (required with ${JSON.stringify(String(params.property))})`,
        patch: set(null),
      };
    case "additionalProperties":
      return {
        pointer: [...pointer, String(params.additionalProperty)],
        expected: "no such member",
        patch: { kind: "none" },
      };
    case "not":
      return { pointer, expected: "a value outside the shape the schema excludes here", patch: { kind: "none" } };
    case "oneOf":
      return {
        pointer,
        expected: "a value matching exactly one alternative",
        found: `${describeValue(value)} matching alternatives ${asArray(params.passingSchemas).join(" and ")}`,
        patch: { kind: "none" },
      };
    default:
      return { pointer, expected: issue.message ?? `a value passing "${issue.keyword}"`, patch: { kind: "none" } };
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function placeholderOf(type: string): unknown {
  switch (type) {
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return null;
  }
}

/** Where the issue is, a missing required member included. */
function pointerOf(issue: ValidationIssue, data: unknown): readonly PathSegment[] {
  return keysIn(issueKeys(issue), data);
}

/** A JSON pointer's tokens; a token indexing an array becomes a number. */
function tokens(pointer: string, data: unknown): PathSegment[] {
  return keysIn(pointerKeys(pointer), data);
}

export function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PathSegment, unknown>)[segment];
  }
  return node;
}

/** A copy of `data` with `value` at `path`; only the objects along the path are copied. */
function withValueAt(data: unknown, path: readonly PathSegment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  const copy = (Array.isArray(data) ? [...(data as unknown[])] : { ...asRecord(data) }) as Record<PathSegment, unknown>;
  copy[head] = withValueAt(copy[head], rest, value);
  return copy;
}

function isWithin(path: readonly PathSegment[], ancestor: readonly PathSegment[]): boolean {
  return ancestor.length <= path.length && ancestor.every((segment, index) => path[index] === segment);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
