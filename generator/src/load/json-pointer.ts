/** RFC 6901 JSON pointers: building them while walking, and reading through them. */

export function appendPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

export function splitPointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at `pointer` inside `document`, or undefined when any step is missing. */
export function readPointer(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const token of splitPointer(pointer)) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** A JSON object (not an array, not null): what a schema keyword holding members is. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
