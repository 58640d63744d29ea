/**
 * Dotted paths (`rerank.topN`) into params and capability objects, as `x-rcp` uses them. The
 * server's params pipeline, the client and the conformance suite (`rcp-gen/conform`, through
 * `@rcp-gen/runtime/testing`) all read and write them here.
 */

/**
 * The server's paths come from protocol descriptors (a fixed, small set), and getPath runs for
 * every gate, clamp and rule of every request: each path is split once, then reused. Other
 * callers may pass any path, so the memo is bounded.
 */
const splitPaths = new Map<string, readonly string[]>();
const MAX_SPLIT_PATHS = 1024;

function keysOf(path: string): readonly string[] {
  let keys = splitPaths.get(path);
  if (keys === undefined) {
    if (splitPaths.size >= MAX_SPLIT_PATHS) splitPaths.clear();
    splitPaths.set(path, (keys = path.split(".")));
  }
  return keys;
}

/** The value at `path` (`rerank.topN`), or undefined when a step on the way is not an object. */
export function getPath(root: unknown, path: string): unknown {
  let node = root;
  for (const key of keysOf(path)) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Sets the value at `path`, creating (or replacing with) objects on the way as needed. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = keysOf(path);
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

/** Deletes the member at `path`, when its parent is an object. */
export function deletePath(root: Record<string, unknown>, path: string): void {
  const keys = keysOf(path);
  let parent: unknown = root;
  for (let i = 0; i < keys.length - 1 && isRecord(parent); i++) parent = parent[keys[i]!];
  if (isRecord(parent)) delete parent[keys[keys.length - 1]!];
}

/** ajv's instancePath (`/rerank/topN`, `/inputs/0`) as a dotted path (`rerank.topN`, `inputs.0`). */
export function pointerToDotted(pointer: string): string {
  return pointerKeys(pointer).join(".");
}

/** A JSON Pointer's keys, unescaped: `/a~1b/0` -> `["a/b", "0"]`. */
export function pointerKeys(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
