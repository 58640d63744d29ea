/** Dotted paths (`rerank.topN`) into params and capability objects, as `x-rcp` uses them. */

export function getPath(root: unknown, path: string): unknown {
  // Walks the path without splitting it: this runs for every gate and clamp of every request.
  let node = root;
  let start = 0;
  for (;;) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    const dot = path.indexOf(".", start);
    const key = dot === -1 ? path.slice(start) : path.slice(start, dot);
    node = (node as Record<string, unknown>)[key];
    if (dot === -1) return node;
    start = dot + 1;
  }
}

/** Sets a value, creating intermediate objects as needed. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const next = node[keys[i]!];
    if (!isRecord(next)) {
      const created: Record<string, unknown> = {};
      node[keys[i]!] = created;
      node = created;
    } else node = next;
  }
  node[keys[keys.length - 1]!] = value;
}

export function deletePath(root: Record<string, unknown>, path: string): void {
  const keys = path.split(".");
  const parent = keys.length === 1 ? root : getPath(root, keys.slice(0, -1).join("."));
  if (isRecord(parent)) delete parent[keys[keys.length - 1]!];
}

/** ajv's instancePath (`/rerank/topN`, `/inputs/0`) as a dotted path (`rerank.topN`, `inputs.0`). */
export function pointerToDotted(pointer: string): string {
  if (pointer === "") return "";
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
