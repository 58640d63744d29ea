/**
 * Rank and score fusion exactly as §16.3: RRF, weighted (per-list min-max) and convex
 * (floor-anchored), with the normative deterministic tie-break and stringified-id dedupe.
 */
import type { Contribution, FusedHit, FusibleHit, FusionOptions, RankedList } from "./types.js";

/** Reciprocal rank fusion's k unless `rrfK` says otherwise. */
export const DEFAULT_RRF_K = 60;
/** The weight of the first list in convex fusion unless `alpha` says otherwise. */
export const DEFAULT_ALPHA = 0.5;

/** Maps a hit at a 1-based rank of one list to that list's unweighted contribution. */
type ListScorer = (hit: FusibleHit, rank: number) => number;

interface Accumulator<H extends FusibleHit> {
  key: string;
  hits: H[];
  terms: number[];
  weight: number;
  contributions: Record<string, Contribution>;
}

/** Merges ranked lists into one list ordered by fused score, then summed weight, then id. */
export function fuse<H extends FusibleHit>(lists: readonly RankedList<H>[], options: FusionOptions): FusedHit<H>[] {
  const weights = listWeights(lists, options);
  const byKey = new Map<string, Accumulator<H>>();
  for (let listIndex = 0; listIndex < lists.length; listIndex += 1) {
    const list = lists[listIndex]!;
    const weight = weights[listIndex]!;
    const scoreOf = listScorer(list, options);
    const seenInList = new Set<string>();
    for (let position = 0; position < list.hits.length; position += 1) {
      const hit = list.hits[position]!;
      const key = String(hit.id);
      if (seenInList.has(key)) continue; // a list's own duplicate keeps its best rank only
      seenInList.add(key);
      const rank = position + 1;
      const fused = weight * scoreOf(hit, rank);
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = { key, hits: [], terms: [], weight: 0, contributions: {} };
        byKey.set(key, entry);
      }
      entry.hits.push(hit);
      entry.terms.push(fused);
      entry.weight += weight;
      entry.contributions[list.name] = { rank, score: hit.score, weight, fused };
    }
  }
  const ranked = [...byKey.values()].map(scored);
  ranked.sort(compareFused);
  const kept = options.k === undefined ? ranked : ranked.slice(0, Math.max(0, options.k));
  // Only the kept hits are merged into one body each: the others are never seen.
  return kept.map(toFusedHit);
}

/** The §16.3 total order: higher score, then higher summed weight, then smaller stringified id. */
export function compareFused(a: Ranked, b: Ranked): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.weight !== b.weight) return b.weight - a.weight;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** What the §16.3 order reads of a fused hit. */
type Ranked = Pick<FusedHit, "key" | "score" | "weight">;

function scored<H extends FusibleHit>(entry: Accumulator<H>): Ranked & { entry: Accumulator<H> } {
  return { key: entry.key, score: sumInFixedOrder(entry.terms), weight: entry.weight, entry };
}

function toFusedHit<H extends FusibleHit>({ entry, score }: { entry: Accumulator<H>; score: number }): FusedHit<H> {
  return {
    key: entry.key,
    hit: richestWithMergedMeta(entry.hits),
    score,
    weight: entry.weight,
    contributions: entry.contributions,
  };
}

/**
 * Summing sorted terms makes equal multisets give bit-identical sums, whatever the list order.
 * One or two terms need no sorting: floating-point addition is commutative. The terms are this
 * accumulator's own, so they are sorted in place.
 */
function sumInFixedOrder(terms: number[]): number {
  if (terms.length === 1) return terms[0]!;
  if (terms.length === 2) return terms[0]! + terms[1]!;
  terms.sort((x, y) => x - y);
  let sum = 0;
  for (const term of terms) sum += term;
  return sum;
}

function listWeights(lists: readonly RankedList[], options: FusionOptions): number[] {
  if (options.method === "convex") {
    const noExplicitWeights = lists.every((list) => list.weight === undefined);
    if (options.alpha !== undefined || (lists.length === 2 && noExplicitWeights)) {
      const alpha = options.alpha ?? DEFAULT_ALPHA;
      if (lists.length !== 2) throw new RangeError("convex fusion with alpha needs exactly two lists");
      if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be within [0,1], got ${alpha}`);
      return [alpha, 1 - alpha];
    }
  }
  return lists.map((list) => {
    const weight = list.weight ?? 1;
    if (!(Number.isFinite(weight) && weight >= 0)) {
      throw new RangeError(`weight of list ${list.name} must be finite and >= 0, got ${weight}`);
    }
    return weight;
  });
}

function listScorer(list: RankedList, options: FusionOptions): ListScorer {
  switch (options.method) {
    case "rrf": {
      const rrfK = options.rrfK ?? DEFAULT_RRF_K;
      if (!(Number.isFinite(rrfK) && rrfK >= 0)) throw new RangeError(`rrfK must be finite and >= 0, got ${rrfK}`);
      return (_hit, rank) => 1 / (rrfK + rank);
    }
    case "weighted": {
      const { min, max } = scoreRange(list);
      // A list whose scores are all equal has no spread: every hit is that list's best.
      return (hit) => (max === min ? 1 : (hit.score - min) / (max - min));
    }
    case "convex": {
      const floor = list.scoreFloor;
      if (floor === undefined || !Number.isFinite(floor)) {
        throw new RangeError(`convex fusion needs a scoreFloor on list ${list.name}`);
      }
      const { max } = scoreRange(list);
      // Scores at the floor carry no relevance; a set that never rises above it normalises to 0.
      return (hit) => (max <= floor ? 0 : Math.max(0, hit.score - floor) / (max - floor));
    }
  }
}

function scoreRange(list: RankedList): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const hit of list.hits) {
    if (!Number.isFinite(hit.score)) throw new RangeError(`list ${list.name} has a non-finite score for ${hit.id}`);
    min = Math.min(min, hit.score);
    max = Math.max(max, hit.score);
  }
  return { min, max };
}

/** Keeps the longest text (then most content blocks); every hit's `meta` is merged, the richest winning conflicts. */
function richestWithMergedMeta<H extends FusibleHit>(hits: readonly H[]): H {
  let richest = hits[0]!;
  if (hits.length === 1) return richest;
  const metas: NonNullable<H["meta"]>[] = [];
  for (const hit of hits) {
    if (hit !== richest && isRicher(hit, richest)) richest = hit;
    if (hit.meta !== undefined) metas.push(hit.meta);
  }
  if (metas.length === 0) return richest;
  // A copy, then an assignment: a spread followed by a new key costs microseconds in Node 20.
  const merged = Object.assign({}, richest);
  merged.meta = Object.assign({}, ...metas, richest.meta) as Record<string, unknown>;
  return merged;
}

/** Longer text wins; more content blocks break a tie; a full tie keeps the earlier hit. */
function isRicher(candidate: FusibleHit, current: FusibleHit): boolean {
  const textDelta = (candidate.text?.length ?? 0) - (current.text?.length ?? 0);
  if (textDelta !== 0) return textDelta > 0;
  return (candidate.content?.length ?? 0) > (current.content?.length ?? 0);
}
