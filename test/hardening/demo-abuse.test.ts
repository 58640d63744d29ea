/**
 * Valid requests that used to freeze the demo engine or fail it (§15.5, §4.6): their cost is
 * now bounded by what is kept or by a cap that answers -32602 naming the field. The time
 * limits below are far above what the bounded work takes and far below what the unbounded
 * work took, so they tell the two apart without measuring anything.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "@rcp-gen/runtime/node";
import { createDemoServer, DEMO_LIMITS } from "../../docs/examples/demo-engine/server.js";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { DEFAULT_MAX_FILTER_CLAUSES } from "../../runtime/src/filter/validate.js";
import type { QueryTransformResult, RerankResult, RetrieveResult } from "../../generated/types.js";
import { postJson, type RpcReply } from "./http-client.js";
import { DEEP, nested } from "./hostile-input.js";

let listening: Listening;
beforeAll(async () => {
  listening = await listen(createDemoServer(), { port: 0 });
});
afterAll(() => listening.close());

/** What each method called here answers. */
interface Results {
  "query/transform": QueryTransformResult;
  rerank: RerankResult;
  retrieve: RetrieveResult;
}

let nextId = 0;
async function call<M extends keyof Results>(method: M, params: object): Promise<RpcReply<Results[M]>> {
  const { json } = await postJson<RpcReply<Results[M]>>(
    `${listening.url}/${method}`,
    JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }),
  );
  return json;
}

const WORDS = ["tomato", "garden", "database", "network", "melody", "star", "bread", "cipher"];
/** Distinct terms, about `bytes` long: every leave-one-term-out form of it is different. */
function longQuery(bytes: number): string {
  const terms: string[] = [];
  for (let length = 0; length < bytes; length += terms.at(-1)!.length + 1)
    terms.push(`${WORDS[terms.length % 8]}${terms.length}`);
  return terms.join(" ");
}

describe("§7.8 multi-query makes only the variants it keeps (§15.5 bound the fan-out)", () => {
  it("a 67 KB query gives n variants quickly, through query/transform and retrieve", { timeout: 10_000 }, async () => {
    const query = longQuery(67 * 1024);
    const transformed = await call("query/transform", { query, method: "multi-query", n: 3 });
    expect(transformed.result.queries).toHaveLength(3);
    const retrieved = await call("retrieve", { query, k: 3, rewrite: "multi-query" });
    expect(retrieved.result.hits).toHaveLength(3);
  });

  it("a query of one term repeated 10 000 times gives its distinct forms only", { timeout: 10_000 }, () => {
    const { queries } = new DemoEngine().transform(Array(10_000).fill("tomato").join(" "), "multi-query", 5);
    // The rewrite, its swap to "seedling", the two together, and one leave-one-out (the others equal it).
    expect(queries).toHaveLength(4);
  });

  it("n is clamped, so a huge n cannot ask for every leave-one-term-out form", { timeout: 10_000 }, async () => {
    const reply = await call("query/transform", { query: longQuery(33 * 1024), method: "multi-query", n: 1e9 });
    expect(reply.result.queries.length).toBeLessThanOrEqual(16);
  });

  it.each(["🍅", "", " ", "\u0000", '"', "constructor", "__proto__ toString"])(
    "retrieve rewrites %j with multi-query and answers finite scores",
    async (query) => {
      const reply = await call("retrieve", { query, k: 3, rewrite: "multi-query" });
      expect(reply.error).toBeUndefined();
      for (const hit of reply.result.hits) {
        expect(Number.isFinite(hit.score)).toBe(true);
        for (const score of Object.values(hit.scores!)) expect(Number.isFinite(score)).toBe(true);
      }
      const transformed = await call("query/transform", { query, method: "multi-query" });
      expect(transformed.result.queries.length).toBeGreaterThan(0);
    },
  );
});

describe("§15.5 per-field processing caps, -32602 naming the field", () => {
  it("rerank of 100 passages of 40 KB is refused on their total size, before any scoring", async () => {
    const passage = "sourdough ".repeat(4000);
    const reply = await call("rerank", { query: "sourdough starter", passages: Array(100).fill(passage) });
    expect(reply.error).toMatchObject({ code: -32602, data: { field: "passages" } });
  });

  it("rerank just under the cap is answered, its cost linear in the passages", { timeout: 10_000 }, async () => {
    const passage = "sourdough ".repeat(Math.floor(DEMO_LIMITS.maxRerankCharacters / 10 / 10) - 1);
    const reply = await call("rerank", { query: "sourdough starter", passages: Array(10).fill(passage) });
    expect(reply.result.scores).toHaveLength(10);
  });

  it("a filter of 100 000 OR clauses is refused naming the filter; the cap itself passes", async () => {
    const clauses = (count: number) =>
      Array.from({ length: count }, (_, value) => ({ field: "year", op: "eq", value }));
    const over = await call("retrieve", { query: "sourdough", k: 3, filter: { or: clauses(100_000) } });
    expect(over.error).toMatchObject({ code: -32602, data: { field: "filter" } });
    const at = await call("retrieve", {
      query: "sourdough",
      k: 3,
      filter: { or: clauses(DEFAULT_MAX_FILTER_CLAUSES - 1) },
    });
    expect(at.error).toBeUndefined();
  });
});

describe("§4.6 unknown members are ignored, however deep", () => {
  it("retrieve with an unknown param nested 100 000 deep answers, and pages with the same cursor", async () => {
    const deep = nested('{"a":', "}", DEEP, "1");
    const body = `{"jsonrpc":"2.0","id":"deep","method":"retrieve","params":{"query":"sourdough","k":2,"xUnknown":${deep}}}`;
    const { json: first } = await postJson<RpcReply<RetrieveResult>>(`${listening.url}/retrieve`, body);
    expect(first.error).toBeUndefined();
    const second = await call("retrieve", { query: "sourdough", k: 2, cursor: first.result.nextCursor });
    expect(second.error).toBeUndefined();
    expect(second.result.hits[0]!.id).not.toBe(first.result.hits[0]!.id);
  });
});
