/**
 * A large generated file is formatted a run of top-level statements at a time, in two threads
 * (generator/src/plugin/format-in-pieces.ts): the result must be exactly prettier's result for
 * the whole file, or a large folder's output would depend on how it was cut.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { format } from "prettier";
import { describe, expect, it } from "vitest";
import { formatInPieces, topLevelChunks } from "../../generator/src/plugin/format-in-pieces.js";
import { prettierOptions } from "../../generator/src/plugin/prettier-options.js";
import { runCli } from "./run-cli.js";
import { scratchFolder } from "./typecheck.js";

const generated = (name: string) => readFileSync(new URL(`../../generated/${name}`, import.meta.url), "utf8");
/** What json-schema-to-typescript and our emitters hand to prettier: unindented lines. */
const unindented = (text: string) => text.replace(/^[ \t]+/gm, "");
const prettier = (text: string) => format(text, prettierOptions);

/** Braces in strings, comments and template literals; a blank line; comments before statements. */
const tricky = [
  "// banner {",
  "/**",
  " * A doc comment with { and ( that do not open anything.",
  " */",
  'export type A = "{" | "(" | `x-${string}`;',
  "",
  "export interface B {",
  "/** inside */",
  "[k: `x-${string}`]: { nested: `${`inner ${'}'}`}` };",
  "}",
  "// a line comment before a statement",
  "export const c = { d: '}' } as const; // trailing {",
  "",
  "",
  "export type E = [",
  "string,",
  "number",
  "];",
  "",
].join("\n");

describe("formatting in pieces", () => {
  it("cuts only between whole top-level statements, keeping a statement's leading comments with it", () => {
    const pieces = topLevelChunks(tricky, 1);
    expect(pieces.join("")).toBe(tricky);
    expect(pieces.map((piece) => piece.split("\n")[0])).toEqual([
      "// banner {",
      "export interface B {",
      "// a line comment before a statement",
      "export type E = [",
    ]);
  });

  it.each([
    ["a text with braces in strings, comments and templates", tricky, 1],
    ["types.ts", unindented(generated("types.ts")), 2_000],
    ["client.ts", unindented(generated("client.ts")), 2_000],
    ["methods.ts", unindented(generated("methods.ts")), 2_000],
  ])("gives prettier's text for %s, cut into small pieces", async (_name, text, size) => {
    expect(topLevelChunks(text, size).length).toBeGreaterThanOrEqual(4);
    expect(await formatInPieces(text, size, prettier)).toBe(await prettier(text));
  });
});

describe("a large output, through the built CLI", () => {
  it("is exactly prettier's text for each whole file, though formatted in pieces by two threads", async () => {
    // 250 clones of retrieve: types.ts passes the size formatted in pieces (256 KB) and the run
    // passes the text that starts a second formatting thread (1 MB), while validators stay quick.
    const folder = join(scratchFolder("large-output-"), "schema");
    cpSync(new URL("../../schema", import.meta.url), folder, { recursive: true });
    const retrieve = JSON.parse(readFileSync(join(folder, "methods", "retrieve.json"), "utf8")) as object;
    for (let index = 0; index < 250; index += 1)
      writeFileSync(
        join(folder, "methods", `x-large-m${index}.json`),
        JSON.stringify({
          ...retrieve,
          "x-rcp": { kind: "method", method: `x-large/m${index}`, capability: "x-large" },
        }),
      );
    const out = join(folder, "..", "generated");
    const result = runCli(["--schema", folder, "--out", out, "--targets", "types,client", "--quiet"]);
    expect(result.stderr).toBe("");
    const types = readFileSync(join(out, "types.ts"), "utf8");
    expect(types.length).toBeGreaterThan(400_000);
    expect(await prettier(types)).toBe(types);
    const client = readFileSync(join(out, "client.ts"), "utf8");
    expect(await prettier(client)).toBe(client);
  }, 60_000);
});
