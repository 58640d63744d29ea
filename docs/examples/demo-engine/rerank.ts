/**
 * The builtin "cross-encoder": a deterministic scorer that reads query and passage together
 * (term coverage, adjacent query bigrams found in order, proximity of the matched terms,
 * and character-trigram overlap for near misses such as plurals). Scores lie in [0, 4].
 */
import { contentTerms } from "./text.js";

const COVERAGE_WEIGHT = 2;
const BIGRAM_WEIGHT = 1;
const PROXIMITY_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.5;

export const RERANK_SCORE_FLOOR = 0;

export function crossEncoderScore(query: string, passage: string): number {
  const queryTerms = [...new Set(contentTerms(query))];
  if (queryTerms.length === 0) return 0;
  const passageTerms = contentTerms(passage);
  const positions = new Map<string, number[]>();
  for (const [position, term] of passageTerms.entries()) {
    const seen = positions.get(term);
    if (seen === undefined) positions.set(term, [position]);
    else seen.push(position);
  }

  const matched = queryTerms.filter((term) => positions.has(term));
  const coverage = matched.length / queryTerms.length;
  return (
    COVERAGE_WEIGHT * coverage +
    BIGRAM_WEIGHT * bigramMatches(queryTerms, positions) +
    PROXIMITY_WEIGHT * proximity(matched, positions) +
    TRIGRAM_WEIGHT * trigramOverlap(queryTerms, passageTerms)
  );
}

/** Share of adjacent query-term pairs that also occur adjacently, in order, in the passage. */
function bigramMatches(queryTerms: readonly string[], positions: ReadonlyMap<string, number[]>): number {
  if (queryTerms.length < 2) return 0;
  let found = 0;
  for (let index = 0; index + 1 < queryTerms.length; index += 1) {
    const next = new Set(positions.get(queryTerms[index + 1]!) ?? []);
    if ((positions.get(queryTerms[index]!) ?? []).some((position) => next.has(position + 1))) found += 1;
  }
  return found / (queryTerms.length - 1);
}

/** 1 when the matched terms sit side by side, falling towards 0 as the smallest window covering them widens. */
function proximity(matched: readonly string[], positions: ReadonlyMap<string, number[]>): number {
  if (matched.length < 2) return matched.length;
  const occurrences = matched
    .flatMap((term, termIndex) => (positions.get(term) ?? []).map((position) => ({ position, termIndex })))
    .sort((a, b) => a.position - b.position);
  const inWindow = new Map<number, number>();
  let narrowest = Infinity;
  let left = 0;
  for (const occurrence of occurrences) {
    inWindow.set(occurrence.termIndex, (inWindow.get(occurrence.termIndex) ?? 0) + 1);
    while (inWindow.size === matched.length) {
      const first = occurrences[left]!;
      narrowest = Math.min(narrowest, occurrence.position - first.position + 1);
      const remaining = inWindow.get(first.termIndex)! - 1;
      if (remaining === 0) inWindow.delete(first.termIndex);
      else inWindow.set(first.termIndex, remaining);
      left += 1;
    }
  }
  return matched.length / narrowest;
}

/** Jaccard overlap of the character trigrams of query and passage terms. */
function trigramOverlap(queryTerms: readonly string[], passageTerms: readonly string[]): number {
  const queryGrams = trigrams(queryTerms);
  const passageGrams = trigrams(passageTerms);
  let shared = 0;
  for (const gram of queryGrams) if (passageGrams.has(gram)) shared += 1;
  const union = queryGrams.size + passageGrams.size - shared;
  return union === 0 ? 0 : shared / union;
}

function trigrams(terms: readonly string[]): Set<string> {
  const grams = new Set<string>();
  for (const term of terms) {
    const padded = `#${term}#`;
    for (let start = 0; start + 3 <= padded.length; start += 1) grams.add(padded.slice(start, start + 3));
  }
  return grams;
}
