/**
 * Loads a schema folder (docs/schema.md): reads and checks every file, assigns `$id`s from file
 * paths, resolves every `$ref`, and gives the checked folder (loaded-folder.ts) the model and
 * the targets are built from.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import { checkCrossFile } from "./cross-file-check.js";
import { requiredFiles } from "./folder-layout.js";
import { type LoadedSchemaFolder, schemaIdBase } from "./loaded-folder.js";
import { checkSchemaFile } from "./meta-check.js";
import type { CheckedSchemaFile } from "./meta-schema/schema-files.js";
import { readSchemaFiles } from "./read-folder.js";
import { schemaFolderPath } from "./npm-schema.js";
import { checkRefs } from "./refs.js";
import { SchemaProblems } from "./schema-folder-error.js";

export type { LoadedError, LoadedMethod, LoadedNotification, LoadedSchemaFolder, LoadedType } from "./loaded-folder.js";
export { schemaIdBase } from "./loaded-folder.js";
export { SchemaFolderError, type SchemaProblem } from "./schema-folder-error.js";

/**
 * Reports every problem it finds, not only the first (a SchemaFolderError lists them all), in
 * two stages: each file on its own, its $refs, and the required files; then, once every file
 * is sound, the checks across files, which rely on each file's shape.
 */
export function loadSchemaFolder(dir: string, cwd = process.cwd()): LoadedSchemaFolder {
  const absolute = schemaFolderPath(dir, cwd);
  const problems = new SchemaProblems();
  const { paths, files: raw } = readSchemaFiles(absolute, problems);
  const present = new Set(paths);
  for (const required of requiredFiles)
    if (!present.has(required)) problems.add(required, "", "missing: every schema folder needs this file");
  const checked = raw.flatMap((file): CheckedSchemaFile[] => {
    const result = checkSchemaFile(file, problems);
    return result === undefined ? [] : [result];
  });
  const idOf = (relativePath: string): string => {
    if (!present.has(relativePath)) throw new Error(`no file ${relativePath} in schema folder ${absolute}`);
    return schemaIdBase + relativePath;
  };
  // A file that did not parse would read as missing to every $ref into it: its parse error says enough.
  if (raw.length === paths.length) checkRefs(raw, idOf, schemaIdBase, problems);
  problems.throwIfAny();
  // Every file passed its checks (else the line above threw), so each is in `checked`.
  const folder = checkCrossFile(checked, problems);
  problems.throwIfAny();

  const hash = createHash("sha256");
  const fileHashes = new Map<string, string>();
  for (const file of raw) {
    const canonical = canonicalJson(file.document);
    hash.update(`${file.path}\n${canonical}\n`);
    fileHashes.set(file.path, createHash("sha256").update(canonical).digest("hex"));
  }
  return {
    dir: absolute,
    hash: hash.digest("hex"),
    fileHashes,
    files: new Map(raw.map((file) => [file.path, { $id: idOf(file.path), ...file.document }])),
    ...folder,
    idOf,
  };
}
