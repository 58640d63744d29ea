import { describe, expect, it } from "vitest";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { drain } from "./drain.js";
import { rcpRejection } from "./rcp-rejection.js";

const SMALL_CORPUS: Record<string, string> = {
  bread: "Sourdough bread needs a lively starter and a long cold proof.",
  soup: "A slow broth simmers for hours with bones and vegetables.",
  stars: "The telescope observes a distant galaxy and its star clusters.",
  routers: "A router forwards each packet along the cheapest route.",
  "bread-2": "Rye bread keeps for days; sourdough keeps even longer.",
};
const small = (): DemoEngine =>
  new DemoEngine({ documents: Object.entries(SMALL_CORPUS).map(([id, text]) => ({ id, text })) });

describe("recall (§3.1)", () => {
  it("BM25 ranks the document that carries the rare query terms first", async () => {
    const { ids, outcome } = await drain(small(), { query: "sourdough starter proof", k: 5, mode: "sparse" });
    expect(ids[0]).toBe("bread");
    expect(ids).toEqual(["bread", "bread-2"]); // documents sharing no term are not sparse matches
    expect(outcome.hits[0]!.score).toBeGreaterThan(outcome.hits[1]!.score);
    expect(outcome.hits[0]!.scores).toEqual({ sparse: outcome.hits[0]!.score });
  });

  it("dense recall finds near-miss spellings through character trigrams", async () => {
    const { ids } = await drain(small(), { query: "telescopes observing galaxies", k: 1, mode: "dense" });
    expect(ids).toEqual(["stars"]);
  });

  it("hybrid fuses both lists by each advertised method and reports per-list scores", async () => {
    for (const method of ["rrf", "weighted", "convex"] as const) {
      const { ids, outcome, events } = await drain(small(), { query: "sourdough bread", k: 2, fusion: { method } });
      expect(new Set(ids)).toEqual(new Set(["bread", "bread-2"]));
      expect(outcome.hits[0]!.scores).toMatchObject({
        dense: expect.any(Number) as unknown,
        sparse: expect.any(Number) as unknown,
      });
      expect(events.map((event) => event.stage)).toEqual(["recall", "fuse"]);
    }
  });

  it("gives weights effect: a dense-only weighting equals the dense ranking", async () => {
    const engine = new DemoEngine();
    const dense = await drain(engine, { query: "encrypted certificate firewall", k: 8, mode: "dense" });
    const weighted = await drain(engine, {
      query: "encrypted certificate firewall",
      k: 8,
      fusion: { method: "weighted", weights: { dense: 1, sparse: 0 } },
    });
    expect(weighted.ids).toEqual(dense.ids);
  });
  it("rejects a negative fusion weight with -32602 naming it", async () => {
    const error = await rcpRejection(() =>
      drain(small(), { query: "bread", k: 2, fusion: { method: "weighted", weights: { sparse: -1 } } }),
    );
    expect(error).toMatchObject({ code: -32602, data: { field: "fusion.weights.sparse" } });
  });
});

describe("rerank, MMR and the funnel (§3.3, §7.7)", () => {
  it("reranks only the top rerank.topN candidates and reports the effective counts", async () => {
    const engine = new DemoEngine();
    const { outcome, events } = await drain(engine, {
      query: "tomato plant compost",
      k: 5,
      candidateK: 30,
      rerank: { method: "cross-encoder", topN: 10 },
    });
    expect(outcome.usage).toMatchObject({ candidates: 30, reranked: 10 });
    expect(outcome.hits).toHaveLength(5);
    const scores = outcome.hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(outcome.hits.every((hit) => hit.scores.rerank === hit.score)).toBe(true);
    expect(events.map((event) => event.stage)).toEqual(["recall", "fuse", "rerank"]);
  });

  it("clamps k and candidateK to maxK and never returns more than k", async () => {
    const { outcome } = await drain(new DemoEngine(), { query: "galaxy", k: 500, candidateK: 900, mode: "dense" });
    expect(outcome.hits).toHaveLength(50);
    expect(outcome.usage.candidates).toBe(50);
  });

  it("MMR with lambda 1 keeps the relevance order; lower lambda trades it for novelty with non-increasing scores", async () => {
    const engine = new DemoEngine();
    const request = { query: "sourdough bread", k: 6, mode: "dense" as const };
    const plain = await drain(engine, request);
    const pure = await drain(engine, { ...request, mmr: { lambda: 1 } });
    expect(pure.ids).toEqual(plain.ids);
    const diverse = await drain(engine, { ...request, mmr: { lambda: 0.3 } });
    expect(diverse.ids[0]).toBe(plain.ids[0]);
    expect(diverse.ids).not.toEqual(plain.ids);
    const scores = diverse.outcome.hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it("minScore drops hits below the threshold in the engine's own scale", async () => {
    const all = await drain(small(), { query: "sourdough bread", k: 5, mode: "dense" });
    const threshold = all.outcome.hits[1]!.score;
    const kept = await drain(small(), { query: "sourdough bread", k: 5, mode: "dense", minScore: threshold });
    expect(kept.ids).toEqual(all.ids.slice(0, 2));
  });

  it("is deterministic for identical requests, and a seed only reorders exact ties", async () => {
    const twins = new DemoEngine({
      documents: ["a", "b", "c", "d", "e", "f"].map((id) => ({ id, text: "identical twin text about galaxies" })),
    });
    const request = { query: "galaxies", k: 6, mode: "sparse" as const };
    const unseeded = await drain(twins, request);
    expect(unseeded.ids).toEqual(["a", "b", "c", "d", "e", "f"]);
    const seeded = await drain(twins, { ...request, seed: 7 });
    expect(seeded.ids).not.toEqual(unseeded.ids);
    expect((await drain(twins, { ...request, seed: 7 })).ids).toEqual(seeded.ids);
    const engine = new DemoEngine();
    const real = { query: "router packet latency", k: 10 };
    expect((await drain(engine, { ...real, seed: 1 })).ids).toEqual((await drain(engine, { ...real, seed: 2 })).ids);
  });
});

describe("stage events and cancellation", () => {
  it("yields transform, recall, fuse, rerank and mmr with the stage's leading hits", async () => {
    const { events, outcome } = await drain(new DemoEngine(), {
      query: "db transactions and neural networks",
      k: 3,
      rewrite: "decompose",
      rerank: { method: "cross-encoder" },
      mmr: { lambda: 0.6 },
    });
    expect(events.map((event) => event.stage)).toEqual(["transform", "recall", "fuse", "rerank", "mmr"]);
    const progress = events.map((event) => event.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(events[0]!.message).toContain("database transactions | neural networks");
    expect(events.at(-1)!.partial.hits.map((hit) => hit.id)).toEqual(outcome.hits.map((hit) => hit.id));
    expect(outcome.rewrittenQuery).toBe("database transactions | neural networks");
  });

  it("stops at the next stage boundary once the signal aborts", async () => {
    const controller = new AbortController();
    const run = new DemoEngine().retrieve(
      { query: "galaxy", k: 3 },
      { signal: controller.signal, stageDelayMs: 10_000 },
    );
    const pending = run.next();
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });
});
