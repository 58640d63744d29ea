/**
 * How a validator's issue is worded, wherever it reaches a user: the -32602 a server answers
 * (`message`, `error.data.field`), a generated validator's Standard Schema issues, the line a
 * server logs for a malformed result or partial, the one `rcp-gen mock` reports for params, and
 * the paths of the testing kit's problems (testing/schema-problems.ts).
 */
import type { ShapeCheck, ValidationIssue } from "./descriptor.js";
import { pointerKeys } from "./dotted-paths.js";

/** What is said when a validator refused a value without saying why. */
export const NO_ISSUE_MESSAGE = "does not match the schema";

/** What is wrong: ajv's message (`must be string`), else the keyword that failed. */
export function issueMessage(issue: ValidationIssue): string {
  return issue.message ?? issue.keyword;
}

/** The keys from the value's root to what the issue is about, a missing required property included. */
export function issueKeys(issue: ValidationIssue): string[] {
  const keys = pointerKeys(issue.instancePath);
  const missing = issue.keyword === "required" ? issue.params.missingProperty : undefined;
  if (typeof missing === "string") keys.push(missing);
  return keys;
}

/** Keys as a path into `value`: a key indexing an array there becomes a number (`["hits", 0, "id"]`). */
export function keysIn(keys: readonly string[], value: unknown): (string | number)[] {
  let node = value;
  return keys.map((key) => {
    const step = Array.isArray(node) && /^\d+$/.test(key) ? Number(key) : key;
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    return step;
  });
}

/** The dotted path from `root` to what the issue is about (`rerank.topN`); "params" for the root itself without one. */
export function issuePath(issue: ValidationIssue, root = ""): string {
  const keys = issueKeys(issue);
  return (root ? [root, ...keys] : keys).join(".") || "params";
}

/** The first issue of a validator that just refused a value, as one line: `result.hits: must be array`. */
export function firstIssueLine(validator: ShapeCheck, root: string): string {
  const issue = validator.errors?.[0];
  return issue === undefined ? `${root}: ${NO_ISSUE_MESSAGE}` : `${issuePath(issue, root)}: ${issueMessage(issue)}`;
}
