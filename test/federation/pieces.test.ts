/**
 * The federation's pieces on their own: capabilities over engines (§16.4), fusion of engine
 * answers (§16.3), the hop budget (§16.2), the order engines are asked in, and the universal
 * entry's import graph.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import {
  EngineHandle,
  Federation,
  federatedCapabilities,
  nextHop,
  parseRegistry,
  type EngineClient,
} from "@rcp-gen/runtime/federation";
import { connectMemory, createServer, RcpClient } from "../../generated/index.js";
import { mergeAnswers, type EngineAnswer } from "../../runtime/src/federation/merge.js";
import { budgetOf, Deadline } from "../../runtime/src/federation/budget.js";
import { repoRoot } from "../generator/run-cli.js";

const engine = (capabilities: Record<string, unknown>): { client: EngineClient } => ({
  client: {
    serverInfo: { name: "e", version: "1" },
    serverCapabilities: capabilities,
    supports: () => true,
    close: async () => {},
  },
});

describe("federated capabilities (§16.4)", () => {
  const a = engine({
    retrieve: {
      maxK: 50,
      modes: ["dense", "hybrid"],
      mmr: true,
      defaultMode: "hybrid",
      deterministic: true,
      snapshots: true,
    },
    filter: { fields: { year: "int", lang: "keyword" }, operators: ["eq", "gte"] },
    citations: {},
    rerank: { methods: ["cross-encoder"] },
  });
  const b = engine({
    retrieve: {
      maxK: 100,
      modes: ["sparse", "hybrid"],
      defaultMode: "sparse",
      deterministic: false,
      scoreScale: "bm25",
    },
    filter: { fields: ["lang", "tag"] },
  });
  const embedder = engine({ embed: { dimension: 8, identity: "x" } });

  it("union: what any engine offers, limits at their largest, text only where all agree", () => {
    expect(federatedCapabilities([a, b, embedder], "union")).toEqual({
      catalog: { engines: 3 },
      streaming: {},
      retrieve: { maxK: 100, modes: ["dense", "hybrid", "sparse"], mmr: true, deterministic: false, scoreFloor: 0 },
      filter: {
        fields: ["year", "lang", "tag"],
        operators: ["eq", "gte", "ne", "gt", "lt", "lte", "in", "nin", "contains", "exists"],
      },
      citations: {},
    });
  });

  it("intersection: what every engine offers, limits at their smallest", () => {
    expect(federatedCapabilities([a, b], "intersection")).toEqual({
      catalog: { engines: 2 },
      streaming: {},
      retrieve: { maxK: 50, modes: ["hybrid"], deterministic: false, scoreFloor: 0 },
      filter: { fields: ["lang"], operators: ["eq", "gte"] },
    });
    expect(
      federatedCapabilities([a, engine({ retrieve: {}, filter: { fields: { lang: "keyword" } } })], "intersection")
        .filter,
    ).toEqual({
      fields: { lang: "keyword" },
      operators: ["eq", "gte"],
    });
  });

  it("a guarantee (retrieve.deterministic) holds only when every engine states it: silence is not a promise (§7.7.1)", () => {
    const silent = engine({ retrieve: { maxK: 10 } });
    const deterministic = engine({ retrieve: { maxK: 10, deterministic: true } });
    for (const rule of ["union", "intersection"] as const) {
      expect(federatedCapabilities([deterministic, silent], rule).retrieve).toMatchObject({ deterministic: false });
      expect(federatedCapabilities([deterministic, deterministic], rule).retrieve).toMatchObject({
        deterministic: true,
      });
    }
  });

  it("offers no retrieve when no engine retrieves", () => {
    expect(federatedCapabilities([embedder], "union")).toEqual({ catalog: { engines: 1 }, streaming: {} });
  });
});

describe("fusing engine answers (§16.3)", () => {
  const answer = (id: string, ids: string[], extra: Partial<EngineAnswer> = {}): EngineAnswer => ({
    id,
    weight: 1,
    result: { hits: ids.map((hitId, index) => ({ id: hitId, score: 10 - index, text: `${id}:${hitId}` })) },
    ...extra,
  });

  it("breaks ties by summed weight, then id, whatever order the engines answered in", () => {
    const one = answer("one", ["x", "y"]);
    const two = answer("two", ["y", "x"], { weight: 1 });
    const three = answer("three", ["z"], { weight: 2 });
    const forward = mergeAnswers([one, two, three], { method: "rrf" }, 10).hits.map((hit) => hit.id);
    const backward = mergeAnswers([three, two, one], { method: "rrf" }, 10).hits.map((hit) => hit.id);
    // z: 2/61 beats x and y (1/61 + 1/62 each); x and y tie on score and weight: the smaller id first.
    expect(forward).toEqual(["z", "x", "y"]);
    expect(backward).toEqual(forward);
  });

  it("tags every hit with the engine that ranked it best, and lists all engines that returned it", () => {
    const [first] = mergeAnswers([answer("one", ["x"]), answer("two", ["q", "x"])], { method: "rrf" }, 1).hits;
    expect(first?.meta).toEqual({ engine: "one", engineRank: 1, engineScore: 10, engines: ["one", "two"] });
  });

  it("falls back to RRF when an engine has no scoreFloor (§16.3 MUST), and says so", () => {
    const floored = answer("one", ["x", "y"], { scoreFloor: 0 });
    const merged = mergeAnswers([floored, answer("two", ["y"])], { method: "convex" }, 2);
    expect(merged.notes).toEqual([
      "fusion: convex needs retrieve.scoreFloor from every engine (two has none); used rrf",
    ]);
    const convex = mergeAnswers([floored, answer("two", ["y", "x"], { scoreFloor: 0 })], { method: "convex" }, 2);
    expect(convex.notes).toEqual([]);
    expect(convex.hits.map((hit) => hit.score)).toEqual([1.9, 1.9]);
  });

  it("drops vectors that engines encoded differently, and keeps a shared encoding", () => {
    const withVector = (id: string, encoding: string) =>
      answer(id, ["x"], {
        result: { hits: [{ id: `${id}-x`, score: 1, vector: "AAAA" } as never], encoding, dimension: 1 },
      });
    const mixed = mergeAnswers([withVector("one", "f32-base64"), withVector("two", "json")], { method: "rrf" }, 2);
    expect(mixed.hits.every((hit) => !("vector" in hit))).toBe(true);
    expect(mixed.notes).toContain("vectors: engines answered in different encodings or dimensions; dropped");
    const shared = mergeAnswers(
      [withVector("one", "f32-base64"), withVector("two", "f32-base64")],
      { method: "rrf" },
      2,
    );
    expect([shared.encoding, shared.dimension, shared.hits.every((hit) => "vector" in hit)]).toEqual([
      "f32-base64",
      1,
      true,
    ]);
  });
});

describe("budgets (§16.2)", () => {
  it("an aggregator decrements the depth and appends itself; a client originates the budget", () => {
    expect(nextHop(undefined, "gw", 3)).toEqual({ depth: 2, path: ["gw"] });
    expect(nextHop({ depth: 2, path: ["edge"] }, "gw", 3)).toEqual({ depth: 1, path: ["edge", "gw"] });
    expect(nextHop(undefined, undefined, 3)).toEqual({ depth: 3, path: [] });
    expect(nextHop({ depth: 1, path: ["a"] }, undefined, 3)).toEqual({ depth: 1, path: ["a"] });
    expect(() => nextHop({ depth: 5, path: ["gw"] }, "gw", 3)).toThrow(/cycle: gw is already/);
    expect(() => nextHop({ depth: 0, path: [] }, "gw", 3)).toThrow(/hop budget exhausted/);
  });

  it("takes the smallest of the caller's timeout and the received deadline, and keeps a reserve back", () => {
    expect(budgetOf(undefined, undefined, 30_000)).toBe(30_000);
    expect(budgetOf(2_000, 500, 30_000)).toBe(500);
    expect(budgetOf(2_000, "soon", 30_000)).toBe(2_000);
    const forEngine = new Deadline(1_000).forEngine();
    expect(forEngine).toBeLessThanOrEqual(950);
    expect(forEngine).toBeGreaterThan(900);
    expect(new Deadline(4).forEngine()).toBe(0);
  });
});

describe("the order engines are asked in", () => {
  it("asks the slowest engine first once their latencies are known (registry order before that)", async () => {
    const asked: string[] = [];
    // Far apart, so that a first call slowed by connecting under load still measures "fast" fastest.
    const delays: Record<string, number> = { fast: 1, slow: 250, middle: 120 };
    const engineServer = (id: string) =>
      createServer({
        info: { name: id, version: "1.0.0" },
        capabilities: { retrieve: { maxK: 10, modes: ["hybrid"] } },
        conformance: "L0",
        handlers: {
          async retrieve() {
            asked.push(id);
            await sleep(delays[id]);
            return { hits: [{ id: `${id}-hit`, score: 1 }] };
          },
        },
      });
    const registry = {
      engines: Object.keys(delays).map((id) => ({ id, transport: "http", url: "http://127.0.0.1:9" })),
    };
    const handles = parseRegistry(RcpClient.protocol, registry).map(
      (entry) => new EngineHandle(entry, () => connectMemory(engineServer(entry.id))),
    );
    const federation = new Federation(RcpClient.protocol, handles);
    try {
      await federation.retrieve({ query: "q", k: 3 });
      expect(asked).toEqual(["fast", "slow", "middle"]);
      asked.length = 0;
      const result = await federation.retrieve({ query: "q", k: 3 });
      expect(asked).toEqual(["slow", "middle", "fast"]);
      // Equal RRF scores and weights: §16.3 orders by id, whatever order the engines were asked in.
      expect(result.hits.map((hit) => hit.id)).toEqual(["fast-hit", "middle-hit", "slow-hit"]);
    } finally {
      await federation.close();
    }
  });
});

describe("each engine's own checks, run before it is asked", () => {
  // "small" is asked first (registry order); its checks clamp k, or drop the mode it lacks.
  it.each([
    ["a clamp", { k: 5 }, { small: { k: 2 }, big: { k: 5 } }],
    [
      "an option dropped under strict: false (§7.7)",
      { k: 1, mode: "dense", strict: false },
      { small: { k: 1 }, big: { k: 1, mode: "dense" } },
    ],
  ] as const)("never change what the other engines receive: %s stays with its engine", async (_, params, expected) => {
    const received: Record<string, Record<string, unknown>> = {};
    const engineServer = (id: string, retrieve: { maxK: number; modes: ("dense" | "sparse" | "hybrid")[] }) =>
      createServer({
        info: { name: id, version: "1.0.0" },
        capabilities: { retrieve },
        conformance: "L0",
        handlers: {
          retrieve(request) {
            received[id] = request.mode === undefined ? { k: request.k } : { k: request.k, mode: request.mode };
            return { hits: [{ id: `${id}-hit`, score: 1 }] };
          },
        },
      });
    const engines = {
      small: engineServer("small", { maxK: 2, modes: ["sparse"] }),
      big: engineServer("big", { maxK: 50, modes: ["dense", "sparse", "hybrid"] }),
    };
    const registry = {
      engines: Object.keys(engines).map((id) => ({ id, transport: "http", url: "http://127.0.0.1:9" })),
    };
    const handles = parseRegistry(RcpClient.protocol, registry).map(
      (entry) => new EngineHandle(entry, () => connectMemory(engines[entry.id as keyof typeof engines])),
    );
    const federation = new Federation(RcpClient.protocol, handles);
    try {
      await federation.retrieve({ query: "q", ...params });
      expect(received).toEqual(expected);
    } finally {
      await federation.close();
    }
  });
});

it("the federation entry reaches no Node module, so it runs in a browser or a worker", () => {
  const seen = new Set<string>();
  const nodeImports: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:^|\n)(?:import|export)[^;]*?from "([^"]+)"/g)) {
      if (specifier!.startsWith("node:") || specifier === "child_process") nodeImports.push(`${file}: ${specifier}`);
      else if (specifier!.startsWith(".")) visit(resolve(dirname(file), specifier!.replace(/\.js$/, ".ts")));
    }
  };
  visit(join(repoRoot, "runtime/src/federation/index.ts"));
  expect([...seen].some((file) => file.endsWith("client/http-transport.ts"))).toBe(true);
  expect(nodeImports).toEqual([]);
});
