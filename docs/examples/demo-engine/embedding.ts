/**
 * A deterministic local "embedding model": signed feature hashing of character trigrams
 * (and whole terms), L2-normalised. Cosine similarity of two such vectors lies in [-1, 1].
 * Also the hashed term weights served by `embed/sparse`.
 */
import { countTerms, inverseDocumentFrequency, type Bm25Index } from "./bm25.js";
import { contentTerms, fnv1a } from "./text.js";

export const EMBEDDING_DIMENSION = 256;
export const EMBEDDING_IDENTITY = "demo-hashed-trigram-256";
export const SPARSE_IDENTITY = "demo-hashed-terms";
/** Size of the hashed vocabulary `embed/sparse` indices fall into. */
export const SPARSE_VOCABULARY = 1 << 18;

const WHOLE_TERM_WEIGHT = 2;

export function embed(text: string): Float32Array {
  const vector = new Float32Array(EMBEDDING_DIMENSION);
  for (const term of contentTerms(text)) {
    addFeature(vector, `w:${term}`, WHOLE_TERM_WEIGHT);
    const padded = `#${term}#`;
    for (let start = 0; start + 3 <= padded.length; start += 1) addFeature(vector, padded.slice(start, start + 3), 1);
  }
  const length = Math.hypot(...vector);
  if (length > 0) for (let index = 0; index < vector.length; index += 1) vector[index]! /= length;
  return vector;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  // The low bit picks the sign, so unrelated features cancel out on average instead of piling up.
  const sign = hash & 1 ? 1 : -1;
  vector[(hash >>> 1) % EMBEDDING_DIMENSION]! += sign * weight;
}

/** Dot product; equals cosine for the normalised vectors `embed` returns. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let index = 0; index < a.length; index += 1) sum += a[index]! * b[index]!;
  return sum;
}

export interface SparseVector {
  indices: number[];
  values: number[];
}

/** (1 + ln tf) · idf per term over the given index, hashed into SPARSE_VOCABULARY; colliding terms add up. */
export function embedSparse(text: string, index: Bm25Index): SparseVector {
  const weights = new Map<number, number>();
  for (const [term, frequency] of countTerms(contentTerms(text))) {
    const slot = fnv1a(term) % SPARSE_VOCABULARY;
    const weight = (1 + Math.log(frequency)) * inverseDocumentFrequency(index, term);
    weights.set(slot, (weights.get(slot) ?? 0) + weight);
  }
  const indices = [...weights.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((slot) => weights.get(slot)!) };
}
