/**
 * The recall stage: dense (cosine over the hashed embeddings) and sparse (BM25) candidate
 * lists over the documents a filter admits. With several transformed queries, a retriever
 * keeps each document's best score across them (scores of one retriever are comparable).
 */
import { bm25Score } from "./bm25.js";
import { cosine, embed } from "./embedding.js";
import type { Snapshot, StoredDocument } from "./snapshots.js";
import { contentTerms, fnv1a } from "./text.js";

export type Retriever = "dense" | "sparse";

/** Theoretical score minima (§6.1): cosine of unit vectors, and BM25 with a non-negative idf. */
export const SCORE_FLOORS: Readonly<Record<Retriever, number>> = { dense: -1, sparse: 0 };

export interface Scored {
  document: StoredDocument;
  score: number;
}

/** Orders ids whose scores tie: by id, or by a seed-keyed hash when a seed is given (§7.7.1). */
export type TieBreak = (a: string, b: string) => number;

export function tieBreakFor(seed: number | undefined): TieBreak {
  const byId = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  if (seed === undefined) return byId;
  return (a, b) => fnv1a(`${seed}:${a}`) - fnv1a(`${seed}:${b}`) || byId(a, b);
}

export function byScoreThenTie(tieBreak: TieBreak): (a: Scored, b: Scored) => number {
  return (a, b) => b.score - a.score || tieBreak(a.document.id, b.document.id);
}

export function recall(
  retriever: Retriever,
  queries: readonly string[],
  snapshot: Snapshot,
  eligible: readonly StoredDocument[],
  limit: number,
  tieBreak: TieBreak,
): Scored[] {
  const scorers = queries.map((query) => scorerFor(retriever, query, snapshot));
  const scored: Scored[] = [];
  for (const document of eligible) {
    const score = Math.max(...scorers.map((scoreOf) => scoreOf(document)));
    // BM25 gives 0 to a document sharing no term with the query: that is not a match.
    if (retriever === "sparse" && score <= 0) continue;
    scored.push({ document, score });
  }
  return scored.sort(byScoreThenTie(tieBreak)).slice(0, limit);
}

function scorerFor(retriever: Retriever, query: string, snapshot: Snapshot): (document: StoredDocument) => number {
  if (retriever === "dense") {
    const queryVector = embed(query);
    return (document) => cosine(queryVector, document.vector);
  }
  const terms = new Set(contentTerms(query));
  return (document) => bm25Score(snapshot.bm25, terms, document.id);
}
