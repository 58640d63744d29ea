/** The standalone §8 filter validator: advertised fields (-32602), operators (-32005) and the value/type table. */
import { describe, expect, it } from "vitest";
import { validateFilter, type AdvertisedFilter } from "../../../runtime/src/filter/validate.js";
import { RcpError } from "../../../runtime/src/protocol/errors.js";

const advertised: AdvertisedFilter = {
  fields: {
    lang: "keyword",
    title: "text",
    year: "int",
    price: "float",
    draft: "bool",
    published: "date",
    where: "geo",
  },
  operators: ["eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "exists"],
};

function failure(
  tree: unknown,
  filter: AdvertisedFilter = advertised,
): { code: number; data: Record<string, unknown> } {
  try {
    validateFilter(tree, filter);
  } catch (error) {
    if (error instanceof RcpError) return { code: error.code, data: { ...error.data } };
    throw error;
  }
  throw new Error("the filter was accepted");
}

describe("validateFilter (§8)", () => {
  it("accepts a nested and/or/not tree and returns it", () => {
    const tree = {
      and: [
        { field: "lang", op: "eq", value: "en" },
        {
          or: [
            { field: "year", op: "gte", value: 2023 },
            { field: "lang", op: "in", value: ["news", "blog"] },
          ],
        },
        { not: { field: "draft", op: "eq", value: true } },
        { field: "published", op: "lt", value: "2024-01-01T00:00:00Z" },
        { field: "title", op: "contains", value: "rag" },
        { field: "where", op: "exists", value: true },
      ],
    };
    expect(validateFilter(tree, advertised)).toBe(tree);
  });

  it("an unadvertised field is -32602 naming filter.<field>", () => {
    expect(failure({ field: "author", op: "eq", value: "x" })).toMatchObject({
      code: -32602,
      data: { field: "filter.author" },
    });
    expect(failure({ field: "lang", op: "eq", value: "x" }, { operators: ["eq"] }).data.field).toBe("filter.lang");
  });

  it("a field list without types checks names and value shapes only", () => {
    expect(validateFilter({ field: "lang", op: "gte", value: 3 }, { fields: ["lang"] })).toBeTruthy();
    expect(failure({ field: "lang", op: "in", value: "en" }, { fields: ["lang"] }).data.field).toBe("filter.lang");
  });

  it.each([
    ["a string for an int", { field: "year", op: "eq", value: "2020" }],
    ["a fraction for an int", { field: "year", op: "eq", value: 2020.5 }],
    ["a number for a keyword", { field: "lang", op: "eq", value: 1 }],
    ["a string for a bool", { field: "draft", op: "eq", value: "true" }],
    ["an ordered comparison on a keyword", { field: "lang", op: "gt", value: "a" }],
    ["a string bound on a float", { field: "price", op: "lt", value: "3" }],
    ["in without an array", { field: "lang", op: "in", value: "en" }],
    ["in with a nested array", { field: "lang", op: "in", value: [["en"]] }],
    ["exists with a non-boolean", { field: "lang", op: "exists", value: 1 }],
    ["contains on an int", { field: "year", op: "contains", value: 1 }],
    ["an object for eq", { field: "lang", op: "eq", value: { en: 1 } }],
  ])("a value/type mismatch (%s) is -32602 naming the field", (_name, clause) => {
    const { code, data } = failure(clause);
    expect(code).toBe(-32602);
    expect(data.field).toBe(`filter.${clause.field}`);
  });

  it("an operator outside the advertised set is -32005 with option filter.op", () => {
    expect(failure({ field: "lang", op: "nin", value: ["x"] }, { fields: ["lang"], operators: ["eq"] })).toEqual({
      code: -32005,
      data: { option: "filter.op", value: "nin", field: "filter.lang" },
    });
  });

  it("structural problems name the node's position in the tree", () => {
    expect(failure({ and: [] }).data.field).toBe("filter.and");
    expect(failure({ or: [{ field: "lang", op: "eq", value: "en" }, 5] }).data.field).toBe("filter.or.1");
    expect(failure({ and: [{ not: { op: "eq", value: 1 } }] }).data.field).toBe("filter.and.0.not.field");
    expect(failure({ field: "lang", value: "en" }).data.field).toBe("filter.op");
    expect(failure("lang = en").code).toBe(-32602);
  });

  it("a tree nested past the depth limit is -32602, not a stack overflow", () => {
    let tree: object = { field: "lang", op: "eq", value: "en" };
    for (let i = 0; i < 10_000; i++) tree = { not: tree };
    expect(failure(tree).code).toBe(-32602);
  });
});
