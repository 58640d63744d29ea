/**
 * The helpers every compiled serializer module starts with: the generic path for values the
 * schema does not pin down (unknown extra members, combinators, anything of an unexpected
 * type), with the runtime's rules (runtime/src/json.ts): JSON.stringify, except that a
 * non-finite number is omitted as an object member and written 0 as an array element.
 *
 * Contract of every value writer `w(v)`: the JSON text of `v`, or undefined where JSON.stringify
 * would leave the member out (undefined, a function, a symbol) or the number is not finite.
 */
export function serializerPrelude(typed: boolean): string {
  const any = typed ? ": any" : "";
  const text = typed ? ": string | undefined" : "";
  return `function $any(v${any})${text} {
  if (typeof v === "number") return Number.isFinite(v) ? "" + v : undefined;
  const t = JSON.stringify(v);
  if (t === undefined || !t.includes("null") || !$hasNonFinite(v)) return t;
  return JSON.stringify(v, $replaceNonFinite);
}
function $replaceNonFinite(${typed ? "this: any, " : ""}_k${typed ? ": string" : ""}, v${any})${typed ? ": unknown" : ""} {
  if (typeof v === "number" && !Number.isFinite(v)) return Array.isArray(this) ? 0 : undefined;
  return v;
}
function $hasNonFinite(v${any})${typed ? ": boolean" : ""} {
  if (typeof v === "number") return !Number.isFinite(v);
  if (typeof v !== "object" || v === null) return false;
  if (Array.isArray(v)) return v.some($hasNonFinite);
  if (typeof v.toJSON === "function") return false;
  for (const k in v) if ($hasNonFinite(v[k])) return true;
  return false;
}
function $element(t${text}, v${any})${typed ? ": string" : ""} {
  return t !== undefined ? t : typeof v === "number" ? "0" : "null";
}
function $plain(v${any})${typed ? ": boolean" : ""} {
  const p = Object.getPrototypeOf(v);
  return (p === Object.prototype || p === null) && typeof v.toJSON !== "function";
}
`;
}
