/**
 * Property: a compiled serializer writes exactly what the runtime's generic serialize() writes
 * (runtime/src/protocol/serialize.ts: JSON.stringify, non-finite numbers omitted as members and 0 as array
 * elements), byte for byte, for every result, progress partial and notification params shape of
 * RCP/1 and random values of it: unknown extra members, escapes, lone surrogates, NaN, -0, and
 * values of the wrong kind anywhere. So its output parses back to what JSON.parse(JSON.stringify(x))
 * gives under those rules.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSerializers, type SerializerShape } from "./compiler/compile-serializers.js";
import { SchemaIndex, type SchemaNode } from "./compiler/schema-index.js";
import { serialize } from "../../runtime/src/protocol/serialize.js";
import { schemaArbitrary } from "./schema-arbitrary.js";

const bundle = JSON.parse(
  readFileSync(new URL("../../generated/rcp.schema.json", import.meta.url), "utf8"),
) as SchemaNode;
const files = bundle.$defs as Record<string, SchemaNode>;

/** Every shape the server writes: results and partials of methods, params of notifications. */
const shapes: SerializerShape[] = Object.entries(files).flatMap(([file, schema]) => {
  const defs = (schema.$defs ?? {}) as Record<string, unknown>;
  const wanted = file.startsWith("methods/")
    ? ["result", "partial"]
    : file.startsWith("notifications/")
      ? ["params"]
      : [];
  return wanted
    .filter((def) => def in defs)
    .map((def) => ({
      name: `${file.replace(/\W+(\w)/g, (_, c: string) => c.toUpperCase()).replace(/json$/i, "")}_${def}`,
      ref: `${schema.$id as string}#/$defs/${def}`,
    }));
});

const workDir = mkdtempSync(join(tmpdir(), "rcp-serializers-"));
let compiled: Record<string, (value: unknown) => string> = {};

beforeAll(async () => {
  const file = join(workDir, "serializers.mjs");
  writeFileSync(file, compileSerializers(bundle, shapes));
  compiled = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as typeof compiled;
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("schema-compiled serializers", () => {
  it("cover every result, partial and notification shape of RCP/1", () => {
    expect(shapes.length).toBeGreaterThan(20);
    expect(shapes.map((shape) => shape.ref)).toContain(
      `${files["methods/retrieve.json"]!.$id as string}#/$defs/result`,
    );
    for (const shape of shapes) expect(typeof compiled[shape.name], shape.name).toBe("function");
  });

  it("write what serialize() writes, byte for byte, for random values of each shape", () => {
    const index = new SchemaIndex(bundle);
    for (const shape of shapes) {
      const write = compiled[shape.name]!;
      fc.assert(
        fc.property(schemaArbitrary(index, shape.ref), (value) => {
          expect(write(value)).toBe(serialize(value));
        }),
        { numRuns: 60 },
      );
    }
  });

  it("keep unknown members, escape strings and apply the non-finite rules (§4.6)", () => {
    const write = compiled[shapes.find((shape) => shape.ref.endsWith("retrieve.json#/$defs/result"))!.name]!;
    const value = {
      hits: [{ id: 'a\u2028"b', score: Number.NaN, text: "\ud800", "x-vendor": { deep: [1, Infinity] } }],
      "x-extra": -0,
    };
    expect(JSON.parse(write(value))).toEqual({
      hits: [{ id: 'a\u2028"b', text: "\ud800", "x-vendor": { deep: [1, 0] } }],
      "x-extra": 0,
    });
  });
});
