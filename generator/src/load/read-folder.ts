/** Reads every `.json` file of a schema folder, reporting unreadable or invalid JSON by position. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { appendPointer } from "./json-pointer.js";
import { SchemaFolderError, type SchemaProblems } from "./schema-folder-error.js";

export interface RawSchemaFile {
  /** Relative posix path inside the folder. */
  readonly path: string;
  readonly document: Record<string, unknown>;
}

export interface SchemaFolderFiles {
  /** Every `.json` file's relative path, sorted, whether or not it parsed. */
  readonly paths: readonly string[];
  /** The files that parsed; each one that did not is a problem, and reading went on. */
  readonly files: readonly RawSchemaFile[];
}

export function readSchemaFiles(dir: string, problems: SchemaProblems): SchemaFolderFiles {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new SchemaFolderError(dir, "", "no such schema folder");
  const paths = listJsonFiles(dir, "").sort();
  if (paths.length === 0) throw new SchemaFolderError(dir, "", "the schema folder holds no .json files");
  const files = paths.flatMap((path) => {
    const document = problems.attempt(() => parseSchemaFile(path, readFileSync(join(dir, path), "utf8")));
    return document === undefined ? [] : [{ path, document }];
  });
  return { paths, files };
}

function listJsonFiles(root: string, prefix: string): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return listJsonFiles(root, path);
    return entry.isFile() && entry.name.endsWith(".json") ? [path] : [];
  });
}

function parseSchemaFile(path: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    const offset = Number(/at position (\d+)/.exec(reason)?.[1] ?? text.length);
    const { line, column } = lineAndColumn(text, offset);
    throw new SchemaFolderError(path, "", `invalid JSON at line ${line}, column ${column}: ${reason}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new SchemaFolderError(path, "", "must be a JSON object (a JSON Schema document)");
  const tooDeep = pointerBeyondDepth(parsed);
  if (tooDeep !== undefined)
    throw new SchemaFolderError(path, tooDeep, `nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  return parsed as Record<string, unknown>;
}

/** Far beyond any real schema, well within what the recursive walkers, ajv and prettier survive. */
const MAX_SCHEMA_DEPTH = 128;

/** The pointer of the first value nested deeper than MAX_SCHEMA_DEPTH, found without recursion. */
function pointerBeyondDepth(document: object): string | undefined {
  const pending: Array<{ value: unknown; pointer: string; depth: number }> = [
    { value: document, pointer: "", depth: 0 },
  ];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== "object" || next.value === null) continue;
    if (next.depth > MAX_SCHEMA_DEPTH) return next.pointer;
    for (const [key, value] of Object.entries(next.value))
      pending.push({ value, pointer: appendPointer(next.pointer, key), depth: next.depth + 1 });
  }
  return undefined;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
