/**
 * Query transformation (§7.8): `rewrite` normalises, expands abbreviations and drops
 * stopwords; `multi-query` derives distinct variants through a small synonym table;
 * `decompose` splits on conjunctions into one rewritten query per clause.
 */
import { isStopword, tokenize } from "./text.js";

export type TransformMethod = "rewrite" | "multi-query" | "decompose";
export const TRANSFORM_METHODS: readonly TransformMethod[] = ["rewrite", "multi-query", "decompose"];
export const DEFAULT_VARIANTS = 3;
/** The most variants `multi-query` returns: a larger `n` is clamped to it (§15.5 bounds the fan-out). */
export const MAX_VARIANTS = 16;

// Maps, not object literals: a query term such as "constructor" must not find Object.prototype.
const ABBREVIATIONS: ReadonlyMap<string, string> = mapOf({
  db: "database",
  dbs: "databases",
  ml: "machine learning",
  nn: "neural network",
  ai: "machine learning",
  tls: "certificate",
  pw: "password",
  net: "network",
  veg: "vegetable",
});

const ALTERNATIVES: ReadonlyMap<string, string> = mapOf({
  database: "index",
  databases: "transaction",
  encryption: "cipher",
  cipher: "encryption",
  password: "access token",
  network: "router",
  packet: "datagram",
  neural: "deep",
  learning: "training",
  tomato: "seedling",
  garden: "raised bed",
  recipe: "broth",
  bread: "sourdough",
  song: "melody",
  melody: "rhythm",
  star: "galaxy",
  planet: "exoplanet",
  telescope: "observatory",
});

const CONJUNCTIONS = new Set(["and", "or", "but", "versus", "vs", "plus", "und", "oder", "aber"]);

export function transformQuery(query: string, method: TransformMethod, n = DEFAULT_VARIANTS): string[] {
  switch (method) {
    case "rewrite":
      return [rewrite(query)];
    case "multi-query":
      return variants(query, n);
    case "decompose":
      return decompose(query);
  }
}

/** Lower-cased, abbreviations expanded, stopwords removed; the plain normal form when nothing else remains. */
export function rewrite(query: string): string {
  const expanded = tokenize(query).flatMap((token) => (ABBREVIATIONS.get(token) ?? token).split(" "));
  const kept = expanded.filter((token) => !isStopword(token));
  return (kept.length > 0 ? kept : expanded).join(" ");
}

/**
 * The rewrite, then synonym swaps, then leave-one-term-out forms, until `n` distinct queries
 * exist. Forms are made one at a time and only until `n` are kept, so a long query costs
 * n times its length, not its length squared (§15.5). Never empty: a query without terms
 * gives its (empty) rewrite, which every scorer takes as matching nothing.
 */
function variants(query: string, n: number): string[] {
  const wanted = Math.min(Math.max(1, n), MAX_VARIANTS);
  const base = rewrite(query);
  const terms = base.split(" ").filter((term) => term !== "");
  const present = new Set(terms);
  // An alternative already present in the query would only repeat a term.
  const alternativeOf = (term: string): string | undefined => {
    const alternative = ALTERNATIVES.get(term);
    return alternative === undefined || present.has(alternative) ? undefined : alternative;
  };
  const kept = new Set<string>();
  const full = (candidate: string): boolean => {
    if (candidate !== "") kept.add(candidate);
    return kept.size >= wanted;
  };
  const forms = [
    () => base,
    () => terms.map((term) => alternativeOf(term) ?? term).join(" "),
    () => [...terms, ...terms.flatMap((term) => alternativeOf(term) ?? [])].join(" "),
  ];
  if (forms.some((form) => full(form()))) return [...kept];
  for (let skipped = 0; skipped < terms.length; skipped += 1) {
    // Leaving out one of a run of equal terms gives the form the run's first already gave.
    if (skipped > 0 && terms[skipped] === terms[skipped - 1]) continue;
    if (full(terms.filter((_, index) => index !== skipped).join(" "))) break;
  }
  return kept.size > 0 ? [...kept] : [base];
}

function decompose(query: string): string[] {
  const clauses: string[][] = [[]];
  for (const piece of query.split(/[,;]/)) {
    for (const token of tokenize(piece)) {
      if (CONJUNCTIONS.has(token)) clauses.push([]);
      else clauses[clauses.length - 1]!.push(token);
    }
    clauses.push([]);
  }
  const parts = [...new Set(clauses.filter((clause) => clause.length > 0).map((clause) => rewrite(clause.join(" "))))];
  return parts.length > 0 ? parts : [rewrite(query)];
}

function mapOf(entries: Readonly<Record<string, string>>): ReadonlyMap<string, string> {
  return new Map(Object.entries(entries));
}
