import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { buildModel } from "../../generator/src/model/model.js";
import { loadRepoSchema } from "../schema/schema-folder.js";
import { repoRoot } from "./run-cli.js";

const types = readFileSync(join(repoRoot, "generated/types.ts"), "utf8");
const declared = [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((match) => match[1]);

it("declares every shared type of schema/types/ exactly once, never as Hit1, Hit2", () => {
  const titles = readdirSync(join(repoRoot, "schema/types")).map(
    (file) => (JSON.parse(readFileSync(join(repoRoot, "schema/types", file), "utf8")) as { title: string }).title,
  );
  expect(titles.length).toBeGreaterThan(5);
  for (const title of titles) {
    expect(declared.filter((name) => name === title)).toEqual([title]);
    expect(declared.filter((name) => new RegExp(`^${title}\\d+$`).test(name ?? ""))).toEqual([]);
  }
});

it("names method shapes from wire names: index/add -> IndexAddParams, embed/sparse -> EmbedSparseResult", () => {
  for (const name of [
    "IndexAddParams",
    "IndexAddResult",
    "EmbedSparseParams",
    "EmbedSparseResult",
    "RetrievePartial",
    "QueryTransformParams",
    "ProgressNotificationParams",
  ])
    expect(declared).toContain(name);
});

it("turns schema descriptions into doc comments and keeps no json-schema-to-typescript notes", () => {
  const indexAdd = JSON.parse(readFileSync(join(repoRoot, "schema/methods/index-add.json"), "utf8")) as {
    $defs: { params: { description: string } };
  };
  expect(types).toContain(
    ` * ${indexAdd.$defs.params.description}\n *\n * @generated from methods/index-add.json#/$defs/params\n */\nexport interface IndexAddParams {`,
  );
  expect(types).not.toContain("was referenced by");
});

it("exports no name json-schema-to-typescript invents (GraphResult1): each is a shape's or a schema title", () => {
  const model = buildModel(loadRepoSchema());
  const titles = new Set<string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (typeof node === "object" && node !== null)
      for (const [key, value] of Object.entries(node)) {
        if (key === "title" && typeof value === "string") titles.add(value);
        collect(value);
      }
  };
  for (const document of model.schema.files.values()) collect(document);
  const named = new Set([...model.shapes.map((shape) => shape.typeName), ...titles]);
  const exported = [...types.matchAll(/^export (?:interface|type|const|function|class) (\w+)/gm)].map(
    (match) => match[1]!,
  );
  expect(exported.length).toBeGreaterThan(80);
  expect(exported.filter((name) => !named.has(name))).toEqual([]);
  expect(exported.filter((name) => /\d$/.test(name))).toEqual([]);
});
