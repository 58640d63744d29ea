/**
 * The dotted-path helpers of `@rcp-gen/runtime/testing`, the ones the server's params pipeline
 * and the conformance suite both use: `rerank.topN` read, written and deleted in params and
 * capabilities as `x-rcp` names them.
 */
import { expect, it } from "vitest";
import { deletePath, getPath, setPath } from "@rcp-gen/runtime/testing";

it("getPath reads through objects only; anything else on the way is undefined", () => {
  const root = { rerank: { topN: 5, models: ["a"] }, flag: false };
  expect(getPath(root, "rerank.topN")).toBe(5);
  expect(getPath(root, "flag")).toBe(false);
  expect(getPath(root, "rerank.models.0")).toBeUndefined();
  expect(getPath(root, "flag.deeper")).toBeUndefined();
  expect(getPath(root, "absent.topN")).toBeUndefined();
  expect(getPath(null, "rerank")).toBeUndefined();
});

it("setPath creates the objects on the way and replaces a non-object in the way", () => {
  const root: Record<string, unknown> = { graph: 1 };
  setPath(root, "rerank.topN", 3);
  setPath(root, "graph.op", "neighbors");
  expect(root).toEqual({ rerank: { topN: 3 }, graph: { op: "neighbors" } });
});

it("deletePath removes the member when its parent exists, and changes nothing otherwise", () => {
  const root: Record<string, unknown> = { rerank: { topN: 3, model: "m" }, k: 10 };
  deletePath(root, "rerank.topN");
  deletePath(root, "k");
  deletePath(root, "absent.topN");
  expect(root).toEqual({ rerank: { model: "m" } });
});

it("any number of distinct paths is read and written right, past the bound of the split memo", () => {
  const root: Record<string, unknown> = {};
  const indexes = Array.from({ length: 2000 }, (_, index) => index);
  for (const index of indexes) setPath(root, `p${index}.v`, index);
  expect(indexes.map((index) => getPath(root, `p${index}.v`))).toEqual(indexes);
});
