import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { CORPUS_SIZE, makeCorpus, serializeCorpus } from "../../docs/examples/demo-engine/make-corpus.js";

const engine = new DemoEngine();

describe("§7.8 query/transform", () => {
  it("rewrite normalises, expands abbreviations and drops stopwords", () => {
    expect(engine.transform("Show me the FAST db, please!", "rewrite")).toEqual({ queries: ["fast database"] });
    expect(engine.transform("the and of", "rewrite")).toEqual({ queries: ["the and of"] });
  });

  it("multi-query returns n distinct variants, the rewrite first", () => {
    const { queries } = engine.transform("password for the network", "multi-query", 4);
    expect(queries).toHaveLength(4);
    expect(new Set(queries).size).toBe(4);
    expect(queries[0]).toBe("password network");
    expect(queries).toContain("access token router");
    expect(engine.transform("galaxy", "multi-query", 5).queries).toEqual(["galaxy"]);
    // "tomato" -> "seedling" would repeat a term already asked for, so it is not swapped in.
    expect(engine.transform("tomato seedling", "multi-query", 5).queries).toEqual([
      "tomato seedling",
      "seedling",
      "tomato",
    ]);
  });

  it("decompose splits on conjunctions and punctuation into rewritten clauses", () => {
    expect(
      engine.transform("compost for tomatoes and the best sourdough; telescopes oder Galaxien", "decompose"),
    ).toEqual({
      queries: ["compost tomatoes", "best sourdough", "telescopes", "galaxien"],
    });
    expect(engine.transform("plain question", "decompose")).toEqual({ queries: ["plain question"] });
  });
});

describe("rerank, embed and embed/sparse", () => {
  it("rerank scores every passage and orders them best first, topN cutting only the order", () => {
    const { scores, order } = engine.rerank(
      "sourdough starter",
      ["a broth of bones", "sourdough starter care", "the starter of sourdough"],
      2,
    );
    expect(scores).toHaveLength(3);
    expect(order).toEqual([1, 2]);
    expect(scores[1]!).toBeGreaterThan(scores[2]!); // in-order adjacency beats the same words apart
    expect(scores[0]).toBe(0);
  });

  it("embed returns unit vectors of the advertised dimension, json or f32-base64", () => {
    const json = engine.embed(["galaxy"]);
    const vector = json.vectors[0] as number[];
    expect(vector).toHaveLength(json.dimension);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    const binary = engine.embed(["galaxy"], "f32-base64");
    expect(Buffer.from(binary.vectors[0] as string, "base64")).toHaveLength(json.dimension * 4);
  });

  it("embed/sparse gives sorted hashed indices with idf-weighted values", () => {
    const [sparse] = engine.embedSparse(["galaxy galaxy the nebula"]);
    expect(sparse!.indices).toHaveLength(2);
    expect(sparse!.indices).toEqual([...sparse!.indices].sort((a, b) => a - b));
    expect(sparse!.values.every((value) => value > 0)).toBe(true);
  });
});

describe("the shipped corpus", () => {
  it("is exactly what make-corpus generates, a few hundred documents under 300 KB", () => {
    const committed = readFileSync(new URL("../../docs/examples/demo-engine/corpus.json", import.meta.url), "utf8");
    expect(serializeCorpus(makeCorpus())).toBe(committed);
    expect(committed.length).toBeLessThan(300_000);
    expect(engine.documentCount).toBe(CORPUS_SIZE);
  });

  it("carries typed metadata in every document", () => {
    for (const document of makeCorpus()) {
      expect(Number.isInteger(document.meta.year)).toBe(true);
      expect(["en", "de"]).toContain(document.meta.lang);
      expect(typeof document.meta.tag).toBe("string");
      if (document.meta.published !== undefined) expect(Date.parse(document.meta.published)).not.toBeNaN();
    }
  });
});
