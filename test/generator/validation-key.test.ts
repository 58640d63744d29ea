/**
 * `rcp-gen --watch` reuses compiled validators while the folder's validation key is unchanged
 * (generator/src/model/validation-key.ts). An edit to what no validator reads keeps the key; an
 * edit to anything a validator checks, a `const` object's members included, changes it.
 */
import { afterAll, expect, it } from "vitest";
import { loadSchemaFolder } from "../../generator/src/load/loader.js";
import { validationKey } from "../../generator/src/model/validation-key.js";
import {
  minimalSchemaFiles,
  removeSchemaFolders,
  schemaNode,
  writeSchemaFolder,
  type FolderFiles,
} from "./schema-fixture.js";

afterAll(removeSchemaFolders);

const hit = (files: FolderFiles, pointer = "") => schemaNode(files, "types/hit.json", pointer);

function keyAfter(edit: (files: FolderFiles) => void): string {
  const files = minimalSchemaFiles();
  hit(files, "/properties")["kind"] = { const: { description: "a", level: 1 } };
  edit(files);
  return validationKey(loadSchemaFolder(writeSchemaFolder(files)));
}

const original = keyAfter(() => undefined);

it("stays the same when only a description, a title or examples change", () => {
  expect(keyAfter((files) => (hit(files)["description"] = "Edited."))).toBe(original);
  expect(keyAfter((files) => (hit(files, "/properties/id")["title"] = "Identifier"))).toBe(original);
  expect(keyAfter((files) => (hit(files, "/properties/id")["examples"] = ["h1"]))).toBe(original);
});

it("changes when a validated keyword or a const object's member changes, even one named description", () => {
  expect(keyAfter((files) => (hit(files, "/properties/score")["minimum"] = 0))).not.toBe(original);
  expect(keyAfter((files) => (hit(files, "/properties/kind/const")["description"] = "b"))).not.toBe(original);
});
