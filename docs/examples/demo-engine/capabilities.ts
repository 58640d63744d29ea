/**
 * What the demo engine advertises (§6): exactly what the engine core implements, so the
 * runtime's gates (-32005), clamps and filter checks apply to the truth.
 */
import type { ServerCapabilities } from "../../../generated/types.js";
import { EMBEDDING_DIMENSION, EMBEDDING_IDENTITY, SPARSE_IDENTITY, SPARSE_VOCABULARY } from "./embedding.js";
import { DEMO_FILTER_SCHEMA, DEMO_MAX_K } from "./engine.js";
import type { FilterOperator } from "./filter.js";
import { TRANSFORM_METHODS } from "./transform.js";

/** Inputs one `embed` call may carry; more is -32013 (§12, §15.5). */
export const EMBED_BATCH_LIMIT = 256;
/** Passages one `rerank` call may carry, and the cap on `retrieve`'s rerank.topN (§4.7). */
export const RERANK_MAX_CANDIDATES = 100;

/**
 * The advertised set. `filterOperators` lets a deployment offer fewer §8 operators than the
 * engine evaluates (say, no `contains`); the runtime then answers -32005 for the others.
 */
export function demoCapabilities(filterOperators: readonly FilterOperator[] = DEMO_FILTER_SCHEMA.operators) {
  return {
    retrieve: {
      maxK: DEMO_MAX_K,
      modes: ["dense", "sparse", "hybrid"],
      fusion: ["rrf", "weighted", "convex"],
      mmr: true,
      rerankBuiltin: true,
      defaultMode: "hybrid",
      deterministic: true,
      snapshots: true,
    },
    rerank: { methods: ["cross-encoder"], maxCandidates: RERANK_MAX_CANDIDATES },
    embed: {
      dimension: EMBEDDING_DIMENSION,
      identity: EMBEDDING_IDENTITY,
      normalized: true,
      batchLimit: EMBED_BATCH_LIMIT,
      encodings: ["json", "f32-base64"],
    },
    sparseEmbed: { identity: SPARSE_IDENTITY, vocabulary: SPARSE_VOCABULARY },
    transform: { methods: [...TRANSFORM_METHODS] },
    index: { writable: true },
    filter: { fields: { ...DEMO_FILTER_SCHEMA.fields }, operators: [...filterOperators] },
    streaming: {},
    pagination: {},
    citations: {},
    log: {},
  } as const satisfies ServerCapabilities;
}
