/**
 * Resolves every `$ref` of a schema folder and rejects `$ref` cycles that can never
 * terminate (a schema that, through `$ref`s and in-place applicators only, evaluates itself
 * against the same instance).
 */
import { readPointer } from "./json-pointer.js";
import type { RawSchemaFile } from "./read-folder.js";
import { SchemaFolderError, type SchemaProblems } from "./schema-folder-error.js";
import { subschemasOf, walkSchema } from "./schema-walk.js";

interface Location {
  readonly file: string;
  readonly pointer: string;
}

const keyOf = (location: Location) => `${location.file}#${location.pointer}`;

/** Adds a problem per unresolvable `$ref` and per cycle, each found once. */
export function checkRefs(
  files: readonly RawSchemaFile[],
  idOf: (path: string) => string,
  base: string,
  problems: SchemaProblems,
): void {
  const documents = new Map(files.map((file) => [file.path, file.document]));
  const anchors = collectAnchors(files);

  const resolveRef = (from: Location, ref: string): Location => {
    const refPointer = `${from.pointer}/$ref`;
    const url = new URL(ref, idOf(from.file));
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    if (!url.href.startsWith(base))
      throw new SchemaFolderError(from.file, refPointer, `$ref "${ref}" points outside the schema folder`);
    const target = url.href.slice(base.length);
    const document = documents.get(target);
    if (document === undefined)
      throw new SchemaFolderError(from.file, refPointer, `$ref "${ref}" points to missing file ${target}`);
    if (fragment === "" || fragment.startsWith("/")) {
      if (readPointer(document, fragment) === undefined)
        throw new SchemaFolderError(from.file, refPointer, `$ref "${ref}" points to missing ${fragment} in ${target}`);
      return { file: target, pointer: fragment };
    }
    const anchored = anchors.get(target)?.get(fragment);
    if (anchored === undefined)
      throw new SchemaFolderError(
        from.file,
        refPointer,
        `$ref "${ref}" points to missing anchor "${fragment}" in ${target}`,
      );
    return { file: target, pointer: anchored };
  };

  /** Schemas evaluated against the same instance as the one at `location`. */
  const sameInstanceEdges = (location: Location): Location[] => {
    const schema = readPointer(documents.get(location.file), location.pointer);
    const edges = subschemasOf(schema, location.pointer)
      .filter((child) => child.sameInstance)
      .map((child) => ({ file: location.file, pointer: child.pointer }));
    const ref = (schema as { $ref?: unknown } | undefined)?.$ref;
    if (typeof schema === "object" && schema !== null && typeof ref === "string") {
      const target = problems.attempt(() => resolveRef(location, ref));
      if (target) edges.push(target);
    }
    return edges;
  };

  const finished = new Set<string>();
  const onPath: Location[] = [];
  const visit = (location: Location): void => {
    const key = keyOf(location);
    if (finished.has(key)) return;
    const cycleStart = onPath.findIndex((step) => keyOf(step) === key);
    if (cycleStart >= 0) {
      const cycle = [...onPath.slice(cycleStart), location].map(keyOf).join(" -> ");
      const first = onPath[cycleStart] ?? location;
      problems.add(first.file, first.pointer, `$ref cycle that never reaches deeper data: ${cycle}`);
      return;
    }
    onPath.push(location);
    for (const next of sameInstanceEdges(location)) visit(next);
    onPath.pop();
    finished.add(key);
  };

  for (const file of files) walkSchema(file.document, (_schema, pointer) => visit({ file: file.path, pointer }));
}

function collectAnchors(files: readonly RawSchemaFile[]): Map<string, Map<string, string>> {
  const anchors = new Map<string, Map<string, string>>();
  for (const file of files) {
    const byName = new Map<string, string>();
    walkSchema(file.document, (schema, pointer) => {
      const anchor = (schema as { $anchor?: unknown } | null)?.$anchor;
      if (typeof anchor === "string") byName.set(anchor, pointer);
    });
    anchors.set(file.path, byName);
  }
  return anchors;
}
