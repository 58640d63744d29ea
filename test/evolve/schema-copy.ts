/**
 * Schema folders for the evolution tests: this repository's schema/ copied to a temp folder
 * with a small edit applied, so each case of the corpus is its edit, not a folder of its own.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const repoSchemaDir = join(repoRoot, "schema");

/** A JSON object of a schema file, as the edits change it: any member read, set or deleted. */
export type SchemaNode = Record<string, unknown>;

/** An edit of the folder: read, change and write its JSON files, or remove one. */
export interface Files {
  edit(path: string, change: (document: SchemaNode) => void): void;
  write(path: string, document: object): void;
  remove(path: string): void;
  read(path: string): SchemaNode;
}

/** The value at a JSON Pointer (RFC 6901); a pointer that names nothing is the case's mistake: it throws. */
function valueAt(document: SchemaNode, pointer: string): unknown {
  let value: unknown = document;
  for (const key of keysOf(pointer)) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key))
      throw new Error(`schema edit: nothing at ${pointer} (no "${key}")`);
    value = (value as SchemaNode)[key];
  }
  return value;
}

const keysOf = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((key) => key.replaceAll("~1", "/").replaceAll("~0", "~"));

/** The object at `pointer` in `document`, to change in place. */
export function at(document: SchemaNode, pointer: string): SchemaNode {
  const value = valueAt(document, pointer);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`schema edit: ${pointer} is not an object`);
  return value as SchemaNode;
}

/** The array at `pointer` in `document`, to change in place. */
export function list(document: SchemaNode, pointer: string): unknown[] {
  const value = valueAt(document, pointer);
  if (!Array.isArray(value)) throw new Error(`schema edit: ${pointer} is not an array`);
  return value;
}

/** The object holding the member `pointer` names, and that member's key. */
function parentOf(document: SchemaNode, pointer: string): [SchemaNode, string] {
  const cut = pointer.lastIndexOf("/");
  const [key] = keysOf(pointer.slice(cut));
  if (key === undefined) throw new Error(`schema edit: ${pointer} names no member`);
  return [at(document, pointer.slice(0, cut)), key];
}

/** Sets (adds or replaces) the member `pointer` names; its parent object must exist. */
export function set(document: SchemaNode, pointer: string, value: unknown): void {
  const [parent, key] = parentOf(document, pointer);
  parent[key] = value;
}

/** Deletes the member `pointer` names, which must exist. */
export function remove(document: SchemaNode, pointer: string): void {
  const [parent, key] = parentOf(document, pointer);
  if (!Object.hasOwn(parent, key)) throw new Error(`schema edit: nothing at ${pointer} (no "${key}")`);
  delete parent[key];
}

const made: string[] = [];

/** A copy of schema/ with `change` applied (none: an exact copy). */
export function schemaCopy(change?: (files: Files) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "rcp-evolve-"));
  made.push(dir);
  cpSync(repoSchemaDir, dir, { recursive: true });
  const read = (path: string) => JSON.parse(readFileSync(join(dir, path), "utf8")) as SchemaNode;
  const write = (path: string, document: object) =>
    writeFileSync(join(dir, path), `${JSON.stringify(document, null, 2)}\n`);
  change?.({
    read,
    write,
    edit: (path, edit) => {
      const document = read(path);
      edit(document);
      write(path, document);
    },
    remove: (path) => rmSync(join(dir, path)),
  });
  return dir;
}

/** Removes every copy made so far. */
export function removeSchemaCopies(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
