/**
 * Every params path a method annotation names (gates, clamps, rules, strictParam, alias
 * targets, the pagination cursor, the idempotent conditions) must start with a property the
 * method's `$defs.params` declares (or be `_meta`, which every params object may carry, §4.4),
 * and the pagination `nextCursor` must be a member `$defs.result` declares: the runtime reads params and results by these names, so a misspelt one would silently never apply.
 */
import { appendPointer } from "./json-pointer.js";
import type { LoadedMethod } from "./loaded-folder.js";
import type { MethodAnnotation } from "./meta-schema/schema-files.js";
import type { SchemaProblems } from "./schema-folder-error.js";

export function checkParamPaths(method: LoadedMethod, problems: SchemaProblems): void {
  checkNextCursor(method, problems);
  const properties = method.document.$defs.params["properties"];
  if (typeof properties !== "object" || properties === null) return;
  for (const { pointer, path } of paramPaths(method.annotation)) {
    const key = path.split(".")[0] ?? "";
    if (key !== "_meta" && !Object.hasOwn(properties, key))
      problems.add(method.file, pointer, `"${path}" starts with "${key}", which $defs.params does not declare`);
  }
}

function checkNextCursor(method: LoadedMethod, problems: SchemaProblems): void {
  const nextCursor = method.annotation.pagination?.nextCursor;
  if (nextCursor === undefined) return;
  const members = method.document.$defs.result["properties"];
  if (typeof members !== "object" || members === null || !Object.hasOwn(members, nextCursor))
    problems.add(
      method.file,
      "/x-rcp/pagination/nextCursor",
      `"${nextCursor}" is not a member $defs.result declares in its properties`,
    );
}

function paramPaths(annotation: MethodAnnotation): { pointer: string; path: string }[] {
  const found: { pointer: string; path: string }[] = [];
  const add = (pointer: string, value: string | undefined) => {
    if (value !== undefined) found.push({ pointer, path: value });
  };
  add("/x-rcp/strictParam", annotation.strictParam);
  add("/x-rcp/pagination/cursor", annotation.pagination?.cursor);
  for (const [legacy, canonical] of Object.entries(annotation.aliases ?? {}))
    add(appendPointer("/x-rcp/aliases", legacy), canonical);
  // `present` under `each` names a member of the array's items, which only the items' schema declares.
  const idempotent = annotation.idempotent;
  if (typeof idempotent === "object")
    idempotent.when.forEach((condition, index) => {
      const at = `/x-rcp/idempotent/when/${index}`;
      if (condition.each === undefined) add(`${at}/present`, condition.present);
      else add(`${at}/each`, condition.each);
    });
  annotation.gates?.forEach((gate, index) => add(`/x-rcp/gates/${index}/param`, gate.param));
  annotation.clamps?.forEach((clamp, index) => add(`/x-rcp/clamps/${index}/param`, clamp.param));
  annotation.rules?.forEach((rule, index) => {
    const at = `/x-rcp/rules/${index}`;
    if (rule.rule === "filter") add(`${at}/param`, rule.param);
    else rule.params.forEach((path, item) => add(`${at}/params/${item}`, path));
  });
  return found;
}
