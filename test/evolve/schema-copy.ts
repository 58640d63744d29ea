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

/** JSON as the edits handle it: any member reachable without casts. */
export type Json = any;

/** An edit of the folder: read, change and write its JSON files, or remove one. */
export interface Files {
  edit(path: string, change: (document: Json) => void): void;
  write(path: string, document: Json): void;
  remove(path: string): void;
  read(path: string): Json;
}

const made: string[] = [];

/** A copy of schema/ with `change` applied (none: an exact copy). */
export function schemaCopy(change?: (files: Files) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "rcp-evolve-"));
  made.push(dir);
  cpSync(repoSchemaDir, dir, { recursive: true });
  const read = (path: string): Json => JSON.parse(readFileSync(join(dir, path), "utf8"));
  const write = (path: string, document: Json) =>
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
