/**
 * The engines' ranked lists fused into one (§16.3) with runtime/fusion: each fused hit tagged
 * with its origin (`meta.engine`, `meta.engineRank`, `meta.engineScore`, and `meta.engines`
 * when several engines returned it), scored by the fused score.
 */
import { fuse } from "../fusion/fuse.js";
import type { FusedHit, FusibleHit, FusionMethod, RankedList } from "../fusion/types.js";
import type { FederableResult } from "./types.js";

/** Cross-engine fusion: RRF by default (§16.3); convex needs every engine's `retrieve.scoreFloor`. */
export interface FederationFusion {
  method: FusionMethod;
  /** RRF damping constant; default 60. */
  rrfK?: number;
  /** Convex mixing weight of exactly two engines; by default each engine's registry weight applies. */
  alpha?: number;
}

/** One engine's answer, ready to fuse. */
export interface EngineAnswer {
  id: string;
  weight: number;
  /** The engine's advertised `retrieve.scoreFloor` (§6.1), when it has one. */
  scoreFloor?: number;
  result: FederableResult;
}

export interface Merged {
  hits: FusibleHit[];
  notes: string[];
  encoding?: string;
  dimension?: number;
}

/** Fuses `answers` (in registry priority order) and keeps at most `k` hits (all of them when k is unknown). */
export function mergeAnswers(
  answers: readonly EngineAnswer[],
  fusion: FederationFusion,
  k: number | undefined,
): Merged {
  const notes: string[] = [];
  let method = fusion.method;
  const floorless = answers.filter((answer) => answer.scoreFloor === undefined).map((answer) => answer.id);
  if (method === "convex" && floorless.length > 0) {
    // §16.3: convex only when every engine advertises scoreFloor, RRF otherwise (MUST).
    method = "rrf";
    notes.push(
      `fusion: convex needs retrieve.scoreFloor from every engine (${floorless.join(", ")} has none); used rrf`,
    );
  }
  const lists: RankedList[] = answers.map((answer) => ({
    name: answer.id,
    hits: answer.result.hits,
    weight: answer.weight,
    ...(answer.scoreFloor === undefined ? {} : { scoreFloor: answer.scoreFloor }),
  }));
  const limit = k ?? Math.max(0, ...answers.map((answer) => answer.result.hits.length));
  const fused = fuse(lists, {
    method,
    ...(fusion.rrfK === undefined ? {} : { rrfK: fusion.rrfK }),
    ...(method === "convex" && fusion.alpha !== undefined && answers.length === 2 ? { alpha: fusion.alpha } : {}),
    k: limit,
  });
  const vectors = sharedVectorFormat(answers);
  if (vectors === undefined) notes.push("vectors: engines answered in different encodings or dimensions; dropped");
  return {
    hits: fused.map((hit) => tagged(hit, vectors !== undefined)),
    notes,
    ...(vectors?.encoding === undefined ? {} : { encoding: vectors.encoding }),
    ...(vectors?.dimension === undefined ? {} : { dimension: vectors.dimension }),
  };
}

/** The hit with the fused score and its origin; the engine that contributed most comes first. */
function tagged(fused: FusedHit, keepVector: boolean): FusibleHit {
  const origins = Object.keys(fused.contributions);
  if (origins.length > 1) origins.sort((a, b) => fused.contributions[b]!.fused - fused.contributions[a]!.fused);
  const engine = origins[0]!;
  const best = fused.contributions[engine]!;
  // Copies, then assignments: a spread followed by new keys (`{ ...meta, engine }`) costs
  // microseconds per object in Node 20, and a fused answer makes several per hit.
  const meta: Record<string, unknown> = Object.assign({}, fused.hit.meta);
  meta.engine = engine;
  meta.engineRank = best.rank;
  meta.engineScore = best.score;
  if (origins.length > 1) meta.engines = origins;
  const hit = keepVector ? Object.assign({}, fused.hit) : withoutVector(fused.hit);
  hit.score = fused.score;
  hit.meta = meta;
  return hit;
}

/** A copy of the hit without its vector; not `delete`, which would leave the copy in V8's slow dictionary mode. */
function withoutVector(hit: FusibleHit): FusibleHit {
  if (!("vector" in hit)) return Object.assign({}, hit);
  const { vector: _dropped, ...rest } = hit as FusibleHit & { vector?: unknown };
  return rest;
}

/** The one vector encoding and dimension every answer used; undefined when they differ (§7.3.1). */
function sharedVectorFormat(answers: readonly EngineAnswer[]): { encoding?: string; dimension?: number } | undefined {
  const withVectors = answers.filter((answer) => answer.result.hits.some((hit) => "vector" in hit));
  const formats = new Set(withVectors.map(({ result }) => `${result.encoding ?? "json"}/${result.dimension ?? ""}`));
  if (formats.size > 1) return undefined;
  const first = withVectors[0]?.result;
  return {
    ...(first?.encoding === undefined ? {} : { encoding: first.encoding }),
    ...(first?.dimension === undefined ? {} : { dimension: first.dimension }),
  };
}
