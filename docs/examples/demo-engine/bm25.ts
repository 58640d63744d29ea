/** Okapi BM25 over pre-tokenised documents (k1 = 1.2, b = 0.75); scores are >= 0. */

const K1 = 1.2;
const B = 0.75;

export interface Bm25Index {
  readonly documentCount: number;
  readonly averageLength: number;
  readonly documentFrequency: ReadonlyMap<string, number>;
  readonly documents: ReadonlyMap<string, { length: number; termFrequency: ReadonlyMap<string, number> }>;
}

export function buildBm25(documents: Iterable<{ id: string; terms: readonly string[] }>): Bm25Index {
  const documentFrequency = new Map<string, number>();
  const indexed = new Map<string, { length: number; termFrequency: Map<string, number> }>();
  let totalLength = 0;
  for (const { id, terms } of documents) {
    const termFrequency = countTerms(terms);
    for (const term of termFrequency.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    indexed.set(id, { length: terms.length, termFrequency });
    totalLength += terms.length;
  }
  const documentCount = indexed.size;
  return {
    documentCount,
    averageLength: documentCount === 0 ? 0 : totalLength / documentCount,
    documentFrequency,
    documents: indexed,
  };
}

export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** The "plus one" idf variant: never negative, so a very common term cannot push a score below 0. */
export function inverseDocumentFrequency(index: Bm25Index, term: string): number {
  const frequency = index.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (index.documentCount - frequency + 0.5) / (frequency + 0.5));
}

/**
 * Walks whichever is smaller, the query's distinct terms or the document's, so a query of
 * thousands of terms costs each document its own length, not the query's (§15.5).
 */
export function bm25Score(index: Bm25Index, queryTerms: ReadonlySet<string>, id: string): number {
  const document = index.documents.get(id);
  if (document === undefined || index.averageLength === 0) return 0;
  const lengthNorm = 1 - B + (B * document.length) / index.averageLength;
  const termScore = (term: string, frequency: number): number =>
    (inverseDocumentFrequency(index, term) * frequency * (K1 + 1)) / (frequency + K1 * lengthNorm);
  let score = 0;
  if (queryTerms.size <= document.termFrequency.size) {
    for (const term of queryTerms) {
      const frequency = document.termFrequency.get(term);
      if (frequency !== undefined) score += termScore(term, frequency);
    }
  } else {
    for (const [term, frequency] of document.termFrequency)
      if (queryTerms.has(term)) score += termScore(term, frequency);
  }
  return score;
}
