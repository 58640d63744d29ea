/** Dotted paths (`rerank.topN`, `retrieve.maxK`) into params and capabilities, as x-rcp writes them. */

type Json = Record<string, unknown>;

export function getPath(root: unknown, path: string): unknown {
  let node = root;
  for (const key of path.split(".")) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** Sets a value, creating the objects on the way. */
export function setPath(root: Json, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = root;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Json;
  }
  node[keys[keys.length - 1]!] = value;
}

/** Deletes a member, when its parent exists. */
export function deletePath(root: Json, path: string): void {
  const keys = path.split(".");
  const parent = getPath(root, keys.slice(0, -1).join(".")) ?? (keys.length === 1 ? root : undefined);
  if (typeof parent === "object" && parent !== null) delete (parent as Json)[keys[keys.length - 1]!];
}

/** Advertised in the §6 sense: present and not `false`. */
export function truthy(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}
