/**
 * Every params path a method annotation names (gates, clamps, rules, strictParam, alias
 * targets, the pagination cursor, the idempotent conditions) must start with a property the
 * method's `$defs.params` declares (or be `_meta`, which every params object may carry, §4.4), and the pagination `nextCursor` must be a member `$defs.result` declares: the
 * runtime reads params and results by these names, so a misspelt one would silently never apply.
 */
import { appendPointer, readPointer } from "./json-pointer.js";
import type { LoadedMethod } from "./loader.js";
import type { SchemaProblems } from "./schema-folder-error.js";

export function checkParamPaths(method: LoadedMethod, document: object, problems: SchemaProblems): void {
  checkNextCursor(method, document, problems);
  const properties = readPointer(document, "/$defs/params/properties");
  if (typeof properties !== "object" || properties === null) return;
  for (const { pointer, path } of paramPaths(method.annotation)) {
    const key = path.split(".")[0] ?? "";
    if (key !== "_meta" && !Object.hasOwn(properties, key))
      problems.add(method.file, pointer, `"${path}" starts with "${key}", which $defs.params does not declare`);
  }
}

function checkNextCursor(method: LoadedMethod, document: object, problems: SchemaProblems): void {
  const nextCursor = (method.annotation["pagination"] as { nextCursor?: string } | undefined)?.nextCursor;
  if (nextCursor === undefined) return;
  const members = readPointer(document, "/$defs/result/properties");
  if (typeof members !== "object" || members === null || !Object.hasOwn(members, nextCursor))
    problems.add(
      method.file,
      "/x-rcp/pagination/nextCursor",
      `"${nextCursor}" is not a member $defs.result declares in its properties`,
    );
}

function paramPaths(annotation: Record<string, unknown>): { pointer: string; path: string }[] {
  const found: { pointer: string; path: string }[] = [];
  const add = (pointer: string, value: unknown) => {
    if (typeof value === "string") found.push({ pointer, path: value });
  };
  add("/x-rcp/strictParam", annotation["strictParam"]);
  add("/x-rcp/pagination/cursor", (annotation["pagination"] as { cursor?: unknown } | undefined)?.cursor);
  for (const [legacy, canonical] of Object.entries((annotation["aliases"] ?? {}) as Record<string, unknown>))
    add(appendPointer("/x-rcp/aliases", legacy), canonical);
  const idempotent = annotation["idempotent"] as { when?: Record<string, unknown>[] } | undefined;
  // `present` under `each` names a member of the array's items, which only the items' schema declares.
  idempotent?.when?.forEach((condition, index) => {
    const at = `/x-rcp/idempotent/when/${index}`;
    if (condition["each"] === undefined) add(`${at}/present`, condition["present"]);
    else add(`${at}/each`, condition["each"]);
  });
  for (const list of ["gates", "clamps", "rules"])
    ((annotation[list] ?? []) as Record<string, unknown>[]).forEach((entry, index) => {
      const at = `/x-rcp/${list}/${index}`;
      add(`${at}/param`, entry["param"]);
      const listed = entry["params"];
      if (Array.isArray(listed)) listed.forEach((path, item) => add(`${at}/params/${item}`, path));
    });
  return found;
}
