/**
 * Examples for the docs targets: values of a shape (a method's params, result or partial),
 * read from a folder laid out like this repository's fixture corpus,
 * `<shape>/<name>.json` with `{ spec?, description?, value }`, where the folder name says
 * which schema the value is an instance of:
 *   methods.retrieve.params -> methods/retrieve.json#/$defs/params
 *   types.hit               -> types/hit.json
 *   meta.meta               -> meta.json#/$defs/meta
 * Examples are optional: without a folder, a shape's own JSON Schema `examples` are used.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { JsonSchema } from "../../load/meta-schema/schema-files.js";

/** An example value of a shape, for the docs targets. */
export interface Example {
  /** `methods.retrieve.params/appendix-d.json`: where it was read from. */
  readonly source: string;
  readonly description?: string;
  readonly spec?: string;
  readonly value: unknown;
}

/** Examples by the ref of the shape they are instances of (`methods/retrieve.json#/$defs/params`). */
export type ExampleSet = ReadonlyMap<string, readonly Example[]>;

const folderedKinds = new Set(["methods", "notifications", "types"]);

export class ExamplesError extends Error {
  override name = "ExamplesError";
}

/** The schema ref a shape folder names, or undefined for a name that names none (`bundle`). */
export function refOfShapeFolder(name: string): string | undefined {
  const [first = "", second = "", ...rest] = name.split(".");
  if (folderedKinds.has(first)) {
    if (second === "" || rest.length > 1) return undefined;
    return rest[0] === undefined ? `${first}/${second}.json` : `${first}/${second}.json#/$defs/${rest[0]}`;
  }
  if (second === "" || rest.length > 0) return undefined;
  return `${first}.json#/$defs/${second}`;
}

/** Reads every `<shape>/<name>.json` under `dir`, sorted by name; folders that name no shape are skipped. */
export function readExamples(dir: string): ExampleSet {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new ExamplesError(`${dir}: no such examples folder`);
  const examples = new Map<string, Example[]>();
  for (const shape of readdirSync(dir).sort()) {
    const ref = refOfShapeFolder(shape);
    if (ref === undefined || !statSync(join(dir, shape)).isDirectory()) continue;
    for (const name of readdirSync(join(dir, shape)).sort()) {
      if (!name.endsWith(".json")) continue;
      const source = `${shape}/${name}`;
      const example = parseExample(source, readFileSync(join(dir, shape, name), "utf8"));
      examples.set(ref, [...(examples.get(ref) ?? []), example]);
    }
  }
  return examples;
}

function parseExample(source: string, text: string): Example {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ExamplesError(`${source}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || !("value" in parsed))
    throw new ExamplesError(`${source}: an example is { "value": ..., "description"?: ..., "spec"?: ... }`);
  const { value, description, spec } = parsed as { value: unknown; description?: unknown; spec?: unknown };
  return {
    source,
    value,
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof spec === "string" ? { spec } : {}),
  };
}

/**
 * The examples of a shape: those of the examples folder when it has any, else the shape's own
 * JSON Schema `examples` (how a schema without a fixture corpus carries them), else none.
 */
export function examplesOf(
  shape: { readonly ref: string; readonly schema: JsonSchema },
  set: ExampleSet | undefined,
): Example[] {
  const listed = set?.get(shape.ref);
  if (listed !== undefined && listed.length > 0) return [...listed];
  const own = shape.schema["examples"];
  return Array.isArray(own)
    ? own.map((value: unknown, index) => ({ source: `${shape.ref}/examples/${index}`, value }))
    : [];
}
