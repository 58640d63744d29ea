/**
 * Shapes shared by the fusion strategies of §16.3. A ranked list is one retriever's (or one
 * engine's) answer, best first; fusion merges several into one deterministic ranking.
 */

/** The parts of a Hit (§7.7) fusion reads; everything else is carried through untouched. */
export interface FusibleHit {
  id: string | number;
  score: number;
  text?: string;
  content?: readonly unknown[];
  meta?: Readonly<Record<string, unknown>>;
}

/** One named, ranked list of hits to fuse, with its weight and score floor. */
export interface RankedList<H extends FusibleHit = FusibleHit> {
  /** Label of the list (`dense`, `sparse`, an engine id); keys the per-list breakdown. */
  name: string;
  /** Best first: position 0 is rank 1. */
  hits: readonly H[];
  /** Scales this list's contribution; default 1. */
  weight?: number;
  /** Theoretical minimum score of this list's scorer (§6.1); required by `convex`. */
  scoreFloor?: number;
}

/** How ranked lists are fused: reciprocal rank, weighted scores, or a convex combination of normalised scores. */
export type FusionMethod = "rrf" | "weighted" | "convex";

/** Options of `fuse`: the method, its weights and constants. */
export interface FusionOptions {
  method: FusionMethod;
  /** RRF damping constant; default 60. */
  rrfK?: number;
  /**
   * Convex mixing weight for exactly two lists: the first gets `alpha`, the second `1 - alpha`
   * (§16.3 `α · norm_dense + (1-α) · norm_lexical`). Default 0.5 when two lists carry no weights.
   */
  alpha?: number;
  /** Truncate the fused list to this many hits. */
  k?: number;
}

/** What one list contributed to a fused hit. */
export interface Contribution {
  /** 1-based position in that list. */
  rank: number;
  score: number;
  weight: number;
  /** The term this list added to the fused score. */
  fused: number;
}

/** A hit after fusion: its fused score and what each list contributed to it. */
export interface FusedHit<H extends FusibleHit = FusibleHit> {
  /** The stringified id: identity across lists (§16.3 deduplication). */
  key: string;
  /** The richest body among the collapsed hits, with `meta` merged from all of them. */
  hit: H;
  score: number;
  /** Sum of the weights of the lists that returned this hit (tie-break 2). */
  weight: number;
  contributions: Readonly<Record<string, Contribution>>;
}
