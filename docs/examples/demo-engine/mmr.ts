/**
 * Maximal Marginal Relevance: greedily picks the candidate maximising
 * λ·relevance − (1−λ)·max similarity to those already picked. Relevance is min-max
 * normalised first so λ trades like for like. Each pick's MMR value never exceeds the
 * previous one (penalties only grow, the pool only shrinks), so it serves as a monotonic score.
 */
import { cosine } from "./embedding.js";

export interface MmrCandidate {
  key: string;
  relevance: number;
  vector: ArrayLike<number>;
}

export interface MmrPick<C extends MmrCandidate> {
  candidate: C;
  value: number;
}

/** `tieBreak` orders candidates whose MMR values are exactly equal (the seeded order, §7.7.1). */
export function mmrOrder<C extends MmrCandidate>(
  candidates: readonly C[],
  lambda: number,
  tieBreak: (a: string, b: string) => number,
): MmrPick<C>[] {
  const relevances = candidates.map((candidate) => candidate.relevance);
  const low = Math.min(...relevances);
  const high = Math.max(...relevances);
  const normalised = (value: number): number => (high === low ? 1 : (value - low) / (high - low));
  const remaining = [...candidates];
  // Similarity is floored at 0: an anti-correlated pick earns no bonus, which keeps values non-increasing.
  const maxSimilarity = new Map<string, number>(remaining.map((candidate) => [candidate.key, 0]));
  const picks: MmrPick<C>[] = [];
  while (remaining.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    remaining.forEach((candidate, index) => {
      const penalty = maxSimilarity.get(candidate.key)!;
      const value = lambda * normalised(candidate.relevance) - (1 - lambda) * penalty;
      const isBetter =
        value > bestValue || (value === bestValue && tieBreak(candidate.key, remaining[bestIndex]!.key) < 0);
      if (isBetter) {
        bestIndex = index;
        bestValue = value;
      }
    });
    const [picked] = remaining.splice(bestIndex, 1);
    picks.push({ candidate: picked!, value: bestValue });
    for (const candidate of remaining) {
      const similarity = cosine(candidate.vector, picked!.vector);
      maxSimilarity.set(candidate.key, Math.max(maxSimilarity.get(candidate.key)!, similarity));
    }
  }
  return picks;
}
