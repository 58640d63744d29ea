/**
 * The §8 filter builder: the JSON it builds, what its types refuse (checked by tsc, which
 * `npm test` runs first), and checkFilter's verdict before any I/O, which must be the very
 * error the server answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkFilter, filter, filterBuilder, RcpError } from "@rcp-gen/runtime";
import type { FilterClause, RcpClient, RetrieveParams } from "../../generated/index.js";
import { connectDemo } from "../demo/demo-child.js";
import { rcpRejection } from "../demo/rcp-rejection.js";

/** The demo engine's advertised fields (docs/examples/demo-engine/engine.ts). */
type DemoFields = { year: "int"; lang: "keyword"; tag: "keyword"; published: "date"; title: "text" };
const f = filterBuilder<DemoFields>();

const where = f.and(
  f.eq("lang", "en"),
  f.or(f.gte("year", 2023), f.in("tag", ["news", "blog"])),
  f.not(f.contains("title", "Rust")),
);

/** Compiled, never run: each line below must fail to type-check. */
export function refusedByTheTypes(): void {
  // @ts-expect-error a field the table does not have
  f.eq("colour", "red");
  // @ts-expect-error a string for an int field
  f.eq("year", "2023");
  // @ts-expect-error an ordered comparison on a keyword field (§8: int, float, date only)
  f.gt("lang", "en");
  // @ts-expect-error contains on an int field (§8: text or keyword)
  f.contains("year", "20");
  // @ts-expect-error an empty and (§8: -32602)
  f.and();
  // @ts-expect-error the untyped builder still wants scalars
  filter.in("tag", [{ nested: true }]);
  const clause: FilterClause = where;
  const params: RetrieveParams = {
    query: "q",
    k: 1,
    filter: f.or(f.exists("published"), f.lt("published", "2020-01-01")),
  };
  void [clause, params];
}

describe("building §8 trees", () => {
  it("builds the spec's example tree as plain JSON", () => {
    const spec = filter.and(
      filter.eq("lang", "en"),
      filter.or(filter.gte("year", 2023), filter.in("tag", ["news", "blog"])),
    );
    expect(spec).toEqual({
      and: [
        { field: "lang", op: "eq", value: "en" },
        {
          or: [
            { field: "year", op: "gte", value: 2023 },
            { field: "tag", op: "in", value: ["news", "blog"] },
          ],
        },
      ],
    });
    expect(JSON.parse(JSON.stringify(where))).toEqual(where);
    expect(f.exists("published")).toEqual({ field: "published", op: "exists", value: true });
    expect(f.nin("tag", ["x"])).toEqual({ field: "tag", op: "nin", value: ["x"] });
  });

  it("refuses at run time what untyped callers could still pass", () => {
    expect(() => (filter.and as (...nodes: never[]) => unknown)()).toThrow(/needs at least one child/);
    expect(() => filter.eq("", 1)).toThrow(/non-empty string/);
    const tags = ["a"];
    const leaf = filter.in("tag", tags);
    tags.push("b");
    expect(leaf.value).toEqual(["a"]);
  });
});

describe("checking a filter against what a server advertises, before any I/O (§8)", () => {
  let full: RcpClient;
  let fewOperators: RcpClient;
  beforeAll(async () => {
    [full, fewOperators] = await Promise.all([connectDemo(), connectDemo("--filter-operators", "eq,in,contains")]);
  });
  afterAll(async () => {
    await Promise.all([full?.close(), fewOperators?.close()]);
  });

  it("a built filter goes straight into retrieve, and every hit satisfies it", async () => {
    checkFilter(where, full.serverCapabilities);
    const { hits } = await full.retrieve({ query: "news about music and gardening", k: 20, filter: where });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      const meta = hit.meta as { lang: string; year: number; tag: string };
      expect(meta.lang).toBe("en");
      expect(meta.year >= 2023 || ["news", "blog"].includes(meta.tag)).toBe(true);
    }
  });

  it("answers exactly what the server would: -32005 for an unadvertised operator, -32602 naming the field", async () => {
    const unadvertisedOperator = f.and(f.eq("lang", "en"), f.gte("year", 2023));
    const unknownField = filter.eq("colour", "red");
    const wrongType = filter.eq("year", "recent");
    const fromServer = await Promise.all(
      [unadvertisedOperator, unknownField, wrongType].map((tree) =>
        rcpRejection(() => fewOperators.retrieve({ query: "q", k: 1, filter: tree })),
      ),
    );
    const capabilities = fewOperators.serverCapabilities;
    await fewOperators.close();
    const local = [unadvertisedOperator, unknownField, wrongType].map((tree) =>
      rcpRejection(() => checkFilter(tree, capabilities)),
    );
    const verdicts = (await Promise.all(local)).map((error) => [error.code, (error.data as { field?: string }).field]);
    expect(verdicts).toEqual([
      [-32005, "filter.year"],
      [-32602, "filter.colour"],
      [-32602, "filter.year"],
    ]);
    expect(fromServer.map((error) => [error.code, (error.data as { field?: string }).field])).toEqual(verdicts);
  });

  it("is -32005 when the server advertises no filter at all", () => {
    const error = (() => {
      try {
        checkFilter(where, { retrieve: {} });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(RcpError);
    expect(error).toMatchObject({ code: -32005, data: { option: "filter" } });
  });
});
