/**
 * The engine's "embeddings": not a model, a small deterministic function (signed feature
 * hashing of each word's character trigrams into 64 dimensions, L2-normalised), so the example
 * runs offline and answers the same way every time. Texts that share spellings land near each
 * other; meaning does not. Swap in a real embedding model here: Orama only sees the vectors.
 */
export const EMBEDDING_DIMENSION = 64;

export function embed(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSION).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const padded = `#${word}#`;
    for (let at = 0; at + 3 <= padded.length; at++) {
      const hash = fnv1a(padded.slice(at, at + 3));
      vector[hash % EMBEDDING_DIMENSION]! += hash & 0x80000000 ? -1 : 1;
    }
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** 32-bit FNV-1a over UTF-16 code units: cheap, stable across runs and platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
