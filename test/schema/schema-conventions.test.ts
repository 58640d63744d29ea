/**
 * Conventions every schema file keeps: validators stay open (§4.6), every definition and
 * property is documented (descriptions become doc comments), every params and result
 * object carries an optional `_meta` (§4.4), and files leave `$id` to the loader.
 */
import { describe, expect, it } from "vitest";
import { loadRepoSchema } from "./schema-folder.js";

type Json = Record<string, unknown>;

const folder = loadRepoSchema();
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Calls `visit` with every subschema of a document and its JSON pointer. */
function eachSubschema(schema: unknown, pointer: string, visit: (schema: Json, pointer: string) => void): void {
  if (!isObject(schema)) return;
  visit(schema, pointer);
  for (const [keyword, child] of Object.entries(schema)) {
    if (keyword === "x-rcp" || keyword === "const" || keyword === "enum" || keyword === "default") continue;
    if (keyword === "properties" || keyword === "patternProperties" || keyword === "$defs") {
      for (const [name, sub] of Object.entries(child as Json))
        eachSubschema(sub, `${pointer}/${keyword}/${name}`, visit);
    } else if (Array.isArray(child))
      child.forEach((sub, index) => eachSubschema(sub, `${pointer}/${keyword}/${index}`, visit));
    else eachSubschema(child, `${pointer}/${keyword}`, visit);
  }
}

const everySubschema: [string, Json][] = [];
for (const [path, document] of folder.files)
  eachSubschema(document, "", (schema, pointer) => everySubschema.push([`${path}#${pointer}`, schema]));

describe("schema folder conventions", () => {
  it("never sets additionalProperties: false (§4.6)", () => {
    expect(
      everySubschema.filter(([, schema]) => schema["additionalProperties"] === false).map(([where]) => where),
    ).toEqual([]);
  });

  // A property narrowed inside if/then or a combinator branch is described where it is declared.
  const refinement = /\/(if|then|else|(oneOf|anyOf|allOf)\/\d+)\/properties\/[^/]+$/;

  it("describes every file, $defs entry and declared property", () => {
    const undocumented = everySubschema
      .filter(([where]) => /(^[^#]*#$)|\/\$defs\/[^/]+$|\/properties\/[^/]+$/.test(where) && !refinement.test(where))
      .filter(([, schema]) => typeof schema["description"] !== "string" || schema["description"] === "")
      .map(([where]) => where);
    expect(undocumented).toEqual([]);
  });

  it("gives every params and result object an optional _meta referring to meta.json (§4.4)", () => {
    const shapes = [...folder.methods, ...folder.notifications].flatMap(({ file, document }) => {
      const defs: Partial<Record<"params" | "result", Json>> = document.$defs;
      return (["params", "result"] as const).flatMap((name) => {
        const shape = defs[name];
        return shape === undefined ? [] : [[`${file} ${name}`, shape] as const];
      });
    });
    for (const [where, shape] of shapes) {
      if (typeof shape["$ref"] === "string") continue; // info's result is initialize's
      const meta = (shape["properties"] as Json | undefined)?.["_meta"] as Json | undefined;
      expect(meta?.["$ref"], where).toMatch(/meta\.json#\/\$defs\/meta$/);
      expect(shape["required"] ?? [], where).not.toContain("_meta");
    }
  });

  it("types every numeric count as a bounded integer (§4.6, §12: a negative or fractional count is -32602)", () => {
    const counts = new Set(
      [
        "k candidateK topN n hops level levels tokenBudget dimension maxK batchLimit maxCandidates vocabulary",
        "deleted accepted chunks tokens candidates reranked deadlineMs depth retryAfterMs ttlSeconds index start end page",
        "protocolVersion completed",
      ]
        .join(" ")
        .split(" "),
    );
    const loose = everySubschema
      .filter(([where]) => counts.has(where.split("/").at(-1) ?? "") && /\/properties\/[^/]+$/.test(where))
      .filter(([where]) => !refinement.test(where))
      // Same-named non-numbers (trust.level, the index capability) are other concepts.
      .filter(([, schema]) => schema["type"] === "number" || schema["type"] === "integer")
      .filter(([, schema]) => schema["type"] !== "integer" || typeof schema["minimum"] !== "number")
      .map(([where]) => where);
    expect(loose).toEqual([]);
  });

  it("leaves $id to the loader, which assigns it from the path", () => {
    for (const [path, document] of folder.files) expect((document as Json)["$id"]).toBe(folder.idOf(path));
  });
});
