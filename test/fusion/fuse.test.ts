import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuse, type FusibleHit, type RankedList } from "../../runtime/src/fusion/index.js";

const hits = (...entries: Array<[string | number, number]>): FusibleHit[] =>
  entries.map(([id, score]) => ({ id, score }));
const order = (fused: ReturnType<typeof fuse>): string[] => fused.map((hit) => hit.key);

describe("§16.3 RRF", () => {
  it("sums weight / (rrfK + rank) over the lists that returned a document", () => {
    const lists: RankedList[] = [
      { name: "a", hits: hits(["x", 9], ["y", 8], ["z", 7]) },
      { name: "b", hits: hits(["y", 0.9], ["w", 0.1]) },
    ];
    const fused = fuse(lists, { method: "rrf" });
    expect(order(fused)).toEqual(["y", "x", "w", "z"]);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 15);
    expect(fused[1]!.score).toBeCloseTo(1 / 61, 15);
    expect(fused[3]!.score).toBeCloseTo(1 / 63, 15);
    expect(fused[0]!.contributions).toEqual({
      a: { rank: 2, score: 8, weight: 1, fused: 1 / 62 },
      b: { rank: 1, score: 0.9, weight: 1, fused: 1 / 61 },
    });
  });

  it("honours rrfK and per-list weights", () => {
    const lists: RankedList[] = [
      { name: "a", hits: hits(["x", 1]), weight: 3 },
      { name: "b", hits: hits(["y", 1]) },
    ];
    const fused = fuse(lists, { method: "rrf", rrfK: 10 });
    expect(fused.map((hit) => [hit.key, hit.score])).toEqual([
      ["x", 3 / 11],
      ["y", 1 / 11],
    ]);
  });

  it("breaks a score tie by higher summed weight, then by the smaller stringified id", () => {
    // z: 0.5/(0+1) + 1/(0+2) = 1 with weight 1.5; a: 1/(0+1) = 1 with weight 1.
    const byWeight = fuse(
      [
        { name: "a", hits: hits(["a", 5]) },
        { name: "b", hits: hits(["z", 5]), weight: 0.5 },
        { name: "c", hits: hits(["q", 5], ["z", 4]) },
      ],
      { method: "rrf", rrfK: 0 },
    );
    expect(byWeight.map((hit) => [hit.key, hit.score, hit.weight])).toEqual([
      ["z", 1, 1.5],
      ["a", 1, 1],
      ["q", 1, 1],
    ]);
    // Mirror-image ranks give equal scores and equal weights: the id decides, numbers stringified.
    const byId = fuse(
      [
        { name: "a", hits: hits([10, 1], ["9", 1]) },
        { name: "b", hits: hits(["9", 1], [10, 1]) },
      ],
      { method: "rrf" },
    );
    expect(order(byId)).toEqual(["10", "9"]);
  });

  it("is independent of the order the lists arrive in", () => {
    const list = fc.array(
      fc.tuple(fc.constantFrom("a", "b", "c", "d", "e", "f"), fc.double({ min: -5, max: 5, noNaN: true })),
      {
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(
        fc.array(list, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("rrf" as const, "weighted" as const),
        (raw, method) => {
          const lists = raw.map((entries, index) => ({ name: `l${index}`, hits: hits(...entries) }));
          const forward = fuse(lists, { method });
          const backward = fuse([...lists].reverse(), { method });
          expect(backward.map((hit) => [hit.key, hit.score])).toEqual(forward.map((hit) => [hit.key, hit.score]));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("§16.3 weighted (per-list min-max)", () => {
  it("normalises each list to [0,1] before weighting", () => {
    const fused = fuse(
      [
        { name: "dense", hits: hits(["x", 10], ["y", 6], ["z", 2]) },
        { name: "sparse", hits: hits(["y", 3], ["x", 1]), weight: 2 },
      ],
      { method: "weighted" },
    );
    // x: 1 + 2·0 = 1; y: 0.5 + 2·1 = 2.5; z: 0.
    expect(fused.map((hit) => [hit.key, hit.score])).toEqual([
      ["y", 2.5],
      ["x", 1],
      ["z", 0],
    ]);
  });

  it("gives every hit of a list without spread the full normalised score", () => {
    const fused = fuse([{ name: "only", hits: hits(["x", 4], ["y", 4]) }], { method: "weighted" });
    expect(fused.map((hit) => hit.score)).toEqual([1, 1]);
  });
});

describe("§16.3 convex (floor-anchored)", () => {
  const lists: RankedList[] = [
    { name: "dense", hits: hits(["x", 0.5], ["y", 0]), scoreFloor: -1 },
    { name: "sparse", hits: hits(["y", 4], ["z", 2]), scoreFloor: 0 },
  ];

  it("anchors each list at its floor and mixes with alpha", () => {
    // dense: x (0.5+1)/1.5 = 1, y 1/1.5 = 2/3; sparse: y 1, z 0.5.
    const even = fuse(lists, { method: "convex" });
    expect(order(even)).toEqual(["y", "x", "z"]);
    expect(even.map((hit) => hit.score)).toEqual(
      [0.5 * (2 / 3) + 0.5, 0.5, 0.25].map((value): unknown => expect.closeTo(value, 12)),
    );
    const denseHeavy = fuse(lists, { method: "convex", alpha: 0.8 });
    expect(order(denseHeavy)).toEqual(["x", "y", "z"]);
    expect(denseHeavy[1]!.score).toBeCloseTo(0.8 * (2 / 3) + 0.2, 12);
  });

  it("differs from min-max exactly where the floor matters: the worst hit is not forced to 0", () => {
    const weighted = fuse([lists[0]!], { method: "weighted" });
    const convex = fuse([lists[0]!], { method: "convex" });
    expect(weighted.find((hit) => hit.key === "y")!.score).toBe(0);
    expect(convex.find((hit) => hit.key === "y")!.score).toBeCloseTo(2 / 3, 12);
  });

  it("scores a list that never rises above its floor as 0 and refuses a list without a floor", () => {
    const flat = fuse([{ name: "d", hits: hits(["x", 0]), scoreFloor: 0 }], { method: "convex" });
    expect(flat[0]!.score).toBe(0);
    expect(() => fuse([{ name: "d", hits: hits(["x", 1]) }, lists[1]!], { method: "convex" })).toThrow(/scoreFloor/);
    expect(() => fuse([lists[0]!], { method: "convex", alpha: 0.3 })).toThrow(/exactly two lists/);
  });
});

describe("§16.3 deduplication", () => {
  it("collapses ids by their string form, keeps the richest body and merges meta", () => {
    const fused = fuse(
      [
        { name: "a", hits: [{ id: 7, score: 1, text: "short", meta: { engine: "a", year: 2020 } }] },
        { name: "b", hits: [{ id: "7", score: 1, text: "a much longer body", meta: { engine: "b", lang: "en" } }] },
      ],
      { method: "rrf" },
    );
    expect(fused).toHaveLength(1);
    expect(fused[0]!.hit).toEqual({
      id: "7",
      score: 1,
      text: "a much longer body",
      meta: { engine: "b", year: 2020, lang: "en" },
    });
    expect(fused[0]!.weight).toBe(2);
  });

  it("counts a repeated id within one list once, at its best rank, and truncates to k", () => {
    const fused = fuse([{ name: "a", hits: hits(["x", 3], ["y", 2], ["x", 1]) }], { method: "rrf", k: 1 });
    expect(fused.map((hit) => [hit.key, hit.contributions.a!.rank])).toEqual([["x", 1]]);
  });
});
