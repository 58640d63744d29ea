/**
 * The helpers every compiled serializer module starts with: the generic path for values the
 * schema does not pin down (unknown extra members, combinators, anything of an unexpected
 * type), with the runtime's rules (runtime/src/protocol/serialize.ts): JSON.stringify, except that a
 * non-finite number is omitted as an object member and written 0 as an array element.
 *
 * Contract of every value writer `w(v)`: the JSON text of `v`, or undefined where JSON.stringify
 * would leave the member out (undefined, a function, a symbol) or the number is not finite.
 */
export const SERIALIZER_PRELUDE = `function $any(v) {
  if (typeof v === "number") return Number.isFinite(v) ? "" + v : undefined;
  const t = JSON.stringify(v);
  if (t === undefined || !t.includes("null") || !$hasNonFinite(v)) return t;
  return JSON.stringify(v, $replaceNonFinite);
}
function $replaceNonFinite(_k, v) {
  if (typeof v === "number" && !Number.isFinite(v)) return Array.isArray(this) ? 0 : undefined;
  return v;
}
function $hasNonFinite(v) {
  if (typeof v === "number") return !Number.isFinite(v);
  if (typeof v !== "object" || v === null) return false;
  if (Array.isArray(v)) return v.some($hasNonFinite);
  if (typeof v.toJSON === "function") return false;
  for (const k in v) if ($hasNonFinite(v[k])) return true;
  return false;
}
function $element(t, v) {
  return t !== undefined ? t : typeof v === "number" ? "0" : "null";
}
function $plain(v) {
  const p = Object.getPrototypeOf(v);
  return (p === Object.prototype || p === null) && typeof v.toJSON !== "function";
}
`;
