/**
 * The fixture corpus under test/schema/fixtures/{valid,invalid}/<shape>/*.json. A shape
 * directory names the schema it is checked against:
 *   methods.retrieve.params -> methods/retrieve.json#/$defs/params
 *   types.hit               -> types/hit.json (the whole file)
 *   protocol.request        -> protocol.json#/$defs/request
 *   bundle                  -> the root schema of bundleSchema(): any frame or batch
 * Each file is { spec, description, value } and, when invalid, the ajv error it must raise:
 * { keyword, instancePath }.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface Fixture {
  /** "valid/methods.retrieve.params/appendix-d.json" */
  readonly name: string;
  /** Schema ref for compileRef, or "bundle" for the root bundle. */
  readonly ref: string;
  readonly spec: string;
  readonly description: string;
  readonly value: unknown;
  readonly keyword?: string;
  readonly instancePath?: string;
}

const fixturesDir = fileURLToPath(new URL("fixtures/", import.meta.url));
const folderedKinds = new Set(["methods", "notifications", "types"]);

/** Maps a shape directory name to the schema ref it names. */
export function refOfShape(shape: string): string {
  if (shape === "bundle") return shape;
  const [first = "", second = "", ...rest] = shape.split(".");
  const [file, definition] = folderedKinds.has(first)
    ? [`${first}/${second}.json`, rest[0]]
    : [`${first}.json`, second];
  if (rest.length > (folderedKinds.has(first) ? 1 : 0) || (!folderedKinds.has(first) && !definition))
    throw new Error(`fixture directory ${shape} does not name a schema`);
  return definition ? `${file}#/$defs/${definition}` : file;
}

export function loadFixtures(validity: "valid" | "invalid"): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const shape of readdirSync(`${fixturesDir}${validity}`).sort())
    for (const file of readdirSync(`${fixturesDir}${validity}/${shape}`).sort()) {
      const name = `${validity}/${shape}/${file}`;
      const parsed = JSON.parse(readFileSync(`${fixturesDir}${name}`, "utf8")) as Omit<Fixture, "name" | "ref">;
      fixtures.push({ ...parsed, name, ref: refOfShape(shape) });
    }
  return fixtures;
}

/** The corpus as an it.each table: a title citing the spec section, and the fixture. */
export function fixtureTable(validity: "valid" | "invalid"): (readonly [string, Fixture])[] {
  return loadFixtures(validity).map(
    (fixture) => [`${fixture.spec} ${fixture.name}: ${fixture.description}`, fixture] as const,
  );
}
