/**
 * ajv's runtime helpers, written out in place in validators.ts: generated code then needs
 * nothing but the runtime package (a server's production install has no ajv), and loading
 * no CommonJS module keeps start-up short (issue 6). Keyed by the helper's file name in
 * `ajv/dist/runtime/`; each behaves as ajv's own on the JSON values validators see.
 */
export interface InlinedHelper {
  /** The function's name in generated code. */
  readonly name: string;
  readonly code: string;
}

export const inlinedHelpers: Readonly<Record<string, InlinedHelper>> = {
  // JSON Schema counts string length in code points: a surrogate pair is one character.
  ucs2length: {
    name: "ajvRuntime_ucs2length",
    code: `function ajvRuntime_ucs2length(text) {
  let length = 0;
  for (let index = 0; index < text.length; index++, length++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) index++;
  }
  return length;
}`,
  },
  // Deep equality for const, enum and uniqueItems: same primitives, same arrays in order, objects
  // with the same own keys and equal values (key order ignored), NaN equal to NaN.
  equal: {
    name: "ajvRuntime_equal",
    code: `function ajvRuntime_equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, index) => ajvRuntime_equal(item, b[index]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && ajvRuntime_equal(a[key], b[key]));
}`,
  },
};
