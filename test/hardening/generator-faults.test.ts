/**
 * rcp-gen on broken schema folders, beyond test/generator: a $ref cycle across files, an
 * unknown x-rcp key, a malformed vendor method name, two files claiming one method, nesting
 * deep enough to overflow a recursive walker, and one broken file among 2000 methods. Each
 * run exits 2 with one line naming the file and JSON pointer, and the previous output stays
 * byte for byte as it was. A `__proto__` alias survives into the generated descriptor.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../generator/run-cli.js";
import {
  minimalSchemaFiles,
  removeSchemaFolders,
  writeSchemaFolder,
  type FolderFiles,
} from "../generator/schema-fixture.js";

const out = mkdtempSync(join(tmpdir(), "rcp-gen-hardening-"));
let previous: Map<string, string>;

const snapshot = (dir: string) =>
  new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), "utf8")]));

beforeAll(() => {
  expect(runCli(["--schema", writeSchemaFolder(minimalSchemaFiles()), "--out", out, "--quiet"]).status).toBe(0);
  previous = snapshot(out);
});
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  removeSchemaFolders();
});

type Annotated = { "x-rcp": Record<string, unknown> };
const retrieve = (files: FolderFiles) => files["methods/retrieve.json"] as Annotated;

function vendorMethod(name: string): object {
  return {
    "x-rcp": { kind: "method", method: name, capability: "x-acme" },
    $defs: { params: { type: "object", properties: { q: { type: "string" } } }, result: { type: "object" } },
  };
}

/** A broken folder, and the file and pointer its one error line must name. */
const broken: Array<[string, () => FolderFiles, RegExp]> = [
  [
    "a $ref cycle across two files",
    () => ({
      ...minimalSchemaFiles(),
      "types/a.json": { title: "A", $ref: "b.json" },
      "types/b.json": { title: "B", $ref: "a.json" },
    }),
    /types\/[ab]\.json: .*\$ref cycle/,
  ],
  [
    "an unknown key in x-rcp",
    () => {
      const files = minimalSchemaFiles();
      retrieve(files)["x-rcp"]["stremaing"] = true;
      return files;
    },
    /methods\/retrieve\.json: \/x-rcp.*stremaing/,
  ],
  [
    "a vendor method name with an empty segment",
    () => ({ ...minimalSchemaFiles(), "methods/echo.json": vendorMethod("x-acme//echo") }),
    /methods\/echo\.json: \/x-rcp\/method: /,
  ],
  [
    "two files claiming one method",
    () => ({ ...minimalSchemaFiles(), "methods/retrieve-again.json": minimalSchemaFiles()["methods/retrieve.json"] }),
    /methods\/retrieve(-again)?\.json: \/x-rcp\/method: .*retrieve/,
  ],
  [
    "a type nested 3000 levels deep",
    () => ({
      ...minimalSchemaFiles(),
      "types/deep.json": `{"title":"Deep",${'"type":"object","properties":{"a":{'.repeat(3000)}"type":"string"${"}}".repeat(3000)}}`,
    }),
    /types\/deep\.json: (\/properties\/a)+\/?[a-z]*: nested deeper than \d+ levels/,
  ],
  [
    "one broken file among 2000 methods",
    () => {
      const files = minimalSchemaFiles();
      for (let i = 0; i < 2000; i++) files[`methods/m${i}.json`] = vendorMethod(`x-acme/m${i}`);
      (files["methods/m1234.json"] as Annotated)["x-rcp"]["capability"] = 42;
      return files;
    },
    /methods\/m1234\.json: \/x-rcp\/capability: /,
  ],
];

describe("rcp-gen refuses a broken schema folder and keeps the previous output", () => {
  it.each(broken)("%s: exit 2, one line naming file and pointer", (_name, files, names) => {
    const result = runCli(["--schema", writeSchemaFolder(files()), "--out", out]);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^rcp-gen: /);
    expect(lines[0]).toMatch(names);
    expect(snapshot(out)).toEqual(previous);
  });
});

describe("rcp-gen and prototype-shaped names", () => {
  it("an alias named __proto__ is emitted as an own property of the descriptor, not as its prototype", () => {
    const files = minimalSchemaFiles();
    retrieve(files)["x-rcp"]["aliases"] = JSON.parse('{"__proto__":"query"}') as object;
    const target = mkdtempSync(join(tmpdir(), "rcp-gen-proto-"));
    try {
      expect(runCli(["--schema", writeSchemaFolder(files), "--out", target, "--quiet"]).status).toBe(0);
      const methods = readFileSync(join(target, "methods.ts"), "utf8");
      expect(methods).toMatch(/aliases: \{\s*\["__proto__"\]: "query",?\s*\}/);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});
