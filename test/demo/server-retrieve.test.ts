/** retrieve through the generated client against the demo engine over stdio (§7.7, §8, §10, §3.3). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RcpClient, RetrieveParams } from "../../generated/index.js";
import { decodeF32Base64 } from "../../runtime/src/codec/f32-base64.js";
import { connectDemo } from "./demo-child.js";
import { rcpRejection } from "./rcp-rejection.js";

let client: RcpClient;
beforeAll(async () => {
  client = await connectDemo();
});
afterAll(() => client.close());

const metaOf = (hit: { meta?: object }): Record<string, unknown> => (hit.meta ?? {}) as Record<string, unknown>;
const ids = (result: { hits: Array<{ id: string | number }> }): Array<string | number> =>
  result.hits.map((hit) => hit.id);

describe("hybrid retrieval (§7.7, §16.3)", () => {
  it.each(["rrf", "weighted", "convex"] as const)("fuses dense and sparse with %s", async (method) => {
    const result = await client.retrieve({
      query: "firewall certificate vulnerability",
      k: 5,
      mode: "hybrid",
      fusion: { method },
    });
    expect(result.hits).toHaveLength(5);
    const scores = result.hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const hit of result.hits) {
      expect(hit.scores).toMatchObject({ dense: expect.any(Number) as unknown, sparse: expect.any(Number) as unknown });
      expect(hit.citation?.uri).toMatch(/^https:\/\/demo\.rcp\.example\/docs\//);
    }
    expect(result.hits.filter((hit) => metaOf(hit)["tag"] === "security").length).toBeGreaterThanOrEqual(4);
  });

  it("rejects an unadvertised option value (unit) with -32005 unless strict is false, which degrades and says so", async () => {
    const params = { query: "galaxy", k: 3, fusion: { method: "rrf" }, unit: "community" } as RetrieveParams;
    expect(await rcpRejection(() => client.retrieve(params))).toMatchObject({ code: -32005 });
    const degraded = await client.retrieve({ ...params, strict: false });
    expect(degraded.hits).toHaveLength(3);
    expect(degraded.usage?.notes?.join(" ")).toContain("unit");
  });
});

describe("filters (§8)", () => {
  it("applies the tree and answers -32602 naming the field for an unadvertised one", async () => {
    const result = await client.retrieve({
      query: "galaxy telescope",
      k: 20,
      filter: {
        and: [
          { field: "lang", op: "eq", value: "en" },
          { field: "year", op: "gte", value: 2022 },
        ],
      },
    });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((hit) => metaOf(hit)["lang"] === "en" && (metaOf(hit)["year"] as number) >= 2022)).toBe(
      true,
    );
    const error = await rcpRejection(() =>
      client.retrieve({ query: "galaxy", k: 3, filter: { field: "author", op: "eq", value: "x" } }),
    );
    expect(error).toMatchObject({ code: -32602, data: { field: "filter.author" } });
  });

  it("answers -32005 for an operator the deployment does not advertise", async () => {
    const narrow = await connectDemo("--filter-operators", "eq,in,gte");
    try {
      expect(narrow.serverCapabilities?.["filter"]).toMatchObject({ operators: ["eq", "in", "gte"] });
      const error = await rcpRejection(() =>
        narrow.retrieve({ query: "galaxy", k: 3, filter: { field: "tag", op: "nin", value: ["music"] } }),
      );
      expect(error.code).toBe(-32005);
      expect(
        (await narrow.retrieve({ query: "galaxy", k: 3, filter: { field: "tag", op: "in", value: ["music"] } })).hits,
      ).toHaveLength(3);
    } finally {
      await narrow.close();
    }
  });
});

describe("counts: clamping and the funnel (§3.3, §12)", () => {
  it("clamps k to maxK and rerank.topN to rerank.maxCandidates rather than rejecting", async () => {
    const result = await client.retrieve({ query: "galaxy", k: 500, rerank: { method: "cross-encoder", topN: 5000 } });
    expect(result.hits).toHaveLength(50);
    expect(result.usage).toMatchObject({ candidates: 50, reranked: 50 });
  });

  it("rejects candidateK < rerank.topN or rerank.topN < k with -32602", async () => {
    const small = await rcpRejection(() => client.retrieve({ query: "galaxy", k: 10, candidateK: 5 }));
    expect(small.code).toBe(-32602);
    const narrow = await rcpRejection(() =>
      client.retrieve({ query: "galaxy", k: 10, rerank: { method: "cross-encoder", topN: 4 } }),
    );
    expect(narrow.code).toBe(-32602);
    expect(narrow.data?.field).toMatch(/rerank\.topN|k/);
  });
});

describe("pagination and snapshots (§10, §7.7.1)", () => {
  it("pages through the ranking without skipping or repeating, on the snapshot it started from", async () => {
    const request: RetrieveParams = { query: "sourdough broth dumpling", k: 6, candidateK: 30, mode: "hybrid" };
    const whole = await client.retrieve({ ...request, k: 30 });
    const seen: Array<string | number> = [];
    let cursor: string | undefined;
    do {
      const page = await client.retrieve({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.indexVersion).toBe(whole.indexVersion);
      seen.push(...ids(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids(whole));
  });

  it("returns hit vectors as f32-base64 that decode to the advertised dimension", async () => {
    const result = await client.retrieve({ query: "galaxy", k: 2, includeVectors: true, encoding: "f32-base64" });
    expect(result).toMatchObject({ encoding: "f32-base64", dimension: 256 });
    for (const hit of result.hits) {
      const vector = decodeF32Base64(hit.vector as string, result.dimension!);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
    }
  });
});
