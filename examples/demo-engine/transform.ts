/**
 * Query transformation (§7.8): `rewrite` normalises, expands abbreviations and drops
 * stopwords; `multi-query` derives distinct variants through a small synonym table;
 * `decompose` splits on conjunctions into one rewritten query per clause.
 */
import { isStopword, tokenize } from "./text.js";

export type TransformMethod = "rewrite" | "multi-query" | "decompose";
export const TRANSFORM_METHODS: readonly TransformMethod[] = ["rewrite", "multi-query", "decompose"];
export const DEFAULT_VARIANTS = 3;

const ABBREVIATIONS: Readonly<Record<string, string>> = {
  db: "database",
  dbs: "databases",
  ml: "machine learning",
  nn: "neural network",
  ai: "machine learning",
  tls: "certificate",
  pw: "password",
  net: "network",
  veg: "vegetable",
};

const ALTERNATIVES: Readonly<Record<string, string>> = {
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
};

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
  const expanded = tokenize(query).flatMap((token) => (ABBREVIATIONS[token] ?? token).split(" "));
  const kept = expanded.filter((token) => !isStopword(token));
  return (kept.length > 0 ? kept : expanded).join(" ");
}

/** The rewrite, then synonym swaps, then leave-one-term-out forms, until `n` distinct queries exist. */
function variants(query: string, n: number): string[] {
  const base = rewrite(query);
  const terms = base.split(" ").filter((term) => term !== "");
  // An alternative already present in the query would only repeat a term.
  const alternativeOf = (term: string): string | undefined => {
    const alternative = ALTERNATIVES[term];
    return alternative === undefined || terms.includes(alternative) ? undefined : alternative;
  };
  const candidates = [
    base,
    terms.map((term) => alternativeOf(term) ?? term).join(" "),
    [...terms, ...terms.flatMap((term) => alternativeOf(term) ?? [])].join(" "),
    ...terms.map((_, skipped) => terms.filter((__, index) => index !== skipped).join(" ")),
  ];
  const distinct = [...new Set(candidates.filter((candidate) => candidate !== ""))];
  return distinct.slice(0, Math.max(1, n));
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
