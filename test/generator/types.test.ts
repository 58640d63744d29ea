import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
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
  const indexAdd = JSON.parse(readFileSync(join(repoRoot, "schema/methods/index-add.json"), "utf8"));
  expect(types).toContain(` * ${indexAdd.$defs.params.description}\n */\nexport interface IndexAddParams {`);
  expect(types).not.toContain("was referenced by");
});
