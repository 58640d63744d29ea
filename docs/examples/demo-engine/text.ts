/** Text normalisation shared by every scorer: Unicode-aware tokens, stopwords, hashing. */

const STOPWORDS = new Set([
  // English
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "does",
  "do",
  "every",
  "for",
  "from",
  "how",
  "in",
  "is",
  "it",
  "its",
  "of",
  "on",
  "or",
  "than",
  "that",
  "the",
  "to",
  "what",
  "when",
  "which",
  "who",
  "why",
  "with",
  "me",
  "show",
  "find",
  "please",
  "tell",
  "about",
  "some",
  "any",
  "all",
  "this",
  "these",
  "those",
  "i",
  "we",
  "you",
  // German
  "der",
  "die",
  "das",
  "ein",
  "eine",
  "und",
  "oder",
  "warum",
  "wie",
  "zu",
  "mit",
  "von",
  "dazu",
]);

/** Lower-cased runs of letters and digits (any script), keeping inner hyphens: `b-tree`, `drought-tolerant`. */
export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFC")
      .match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? []
  );
}

export function isStopword(token: string): boolean {
  return STOPWORDS.has(token);
}

/** Tokens that carry meaning: what BM25, rerank and transforms work on. */
export function contentTerms(text: string): string[] {
  return tokenize(text).filter((token) => !isStopword(token));
}

/** FNV-1a 32-bit: a stable hash for feature hashing, the same on every host. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Two FNV-1a passes with different seeds as 16 hex digits: enough to tell fingerprints apart. */
export function hash64(text: string): string {
  return [0x811c9dc5, 0x9e3779b9].map((seed) => fnv1a(text, seed).toString(16).padStart(8, "0")).join("");
}
