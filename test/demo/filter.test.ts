import { describe, expect, it } from "vitest";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { rcpRejection } from "./rcp-rejection.js";
import { drain } from "./drain.js";

const engine = new DemoEngine({
  documents: [
    {
      id: "a",
      title: "Rust ownership",
      text: "galaxy notes",
      meta: { year: 2019, lang: "en", tag: "astronomy", published: "2019-05-01T00:00:00Z" },
    },
    {
      id: "b",
      title: "Go channels",
      text: "galaxy notes",
      meta: { year: 2021, lang: "de", tag: "astronomy", published: "2021-01-15T00:00:00Z" },
    },
    { id: "c", title: "Rust async", text: "galaxy notes", meta: { year: 2023, lang: "en", tag: "music" } },
    {
      id: "d",
      title: "Zig comptime",
      text: "galaxy notes",
      meta: { year: 2024, lang: "fr", tag: "cooking", published: "2024-07-30T00:00:00Z" },
    },
  ],
});

async function matching(filter: unknown): Promise<string[]> {
  const { ids } = await drain(engine, { query: "galaxy", k: 10, mode: "sparse", filter });
  return [...ids].sort();
}

describe("§8 operators over the advertised field types", () => {
  it.each([
    [{ field: "lang", op: "eq", value: "en" }, ["a", "c"]],
    [{ field: "lang", op: "ne", value: "en" }, ["b", "d"]],
    [{ field: "year", op: "gt", value: 2021 }, ["c", "d"]],
    [{ field: "year", op: "gte", value: 2021 }, ["b", "c", "d"]],
    [{ field: "year", op: "lt", value: 2021 }, ["a"]],
    [{ field: "year", op: "lte", value: 2021 }, ["a", "b"]],
    [{ field: "tag", op: "in", value: ["music", "cooking"] }, ["c", "d"]],
    [{ field: "tag", op: "nin", value: ["music", "cooking"] }, ["a", "b"]],
    [{ field: "title", op: "contains", value: "Rust" }, ["a", "c"]],
    [{ field: "published", op: "exists", value: false }, ["c"]],
    [{ field: "published", op: "gte", value: "2021-01-01T00:00:00Z" }, ["b", "d"]],
    [{ field: "published", op: "lt", value: Date.parse("2021-01-01T00:00:00Z") }, ["a"]],
    [{ field: "published", op: "ne", value: "2019-05-01T00:00:00Z" }, ["b", "c", "d"]],
  ])("%j matches %j", async (filter, expected) => {
    expect(await matching(filter)).toEqual(expected);
  });

  it("nests and/or/not arbitrarily", async () => {
    const filter = {
      and: [
        { not: { field: "lang", op: "eq", value: "fr" } },
        {
          or: [
            { field: "year", op: "gte", value: 2023 },
            { field: "tag", op: "eq", value: "astronomy" },
          ],
        },
      ],
    };
    expect(await matching(filter)).toEqual(["a", "b", "c"]);
  });

  it("answers -32602 naming the field for an unadvertised field, a mistyped value or a bad date", async () => {
    expect(await rcpRejection(() => matching({ field: "author", op: "eq", value: "x" }))).toMatchObject({
      code: -32602,
      data: { field: "filter.author" },
    });
    expect(await rcpRejection(() => matching({ field: "year", op: "eq", value: "2020" }))).toMatchObject({
      code: -32602,
      data: { field: "filter.year" },
    });
    expect(await rcpRejection(() => matching({ field: "published", op: "gt", value: "last tuesday" }))).toMatchObject({
      code: -32602,
      data: { field: "filter.published" },
    });
    expect(await rcpRejection(() => matching({ and: [] }))).toMatchObject({
      code: -32602,
      data: { field: "filter.and" },
    });
  });
});
