import type { RetrieveResult } from "../../generated/types.js";

/**
 * The one workload every server answers: a retrieve of 3 hits. Ours, the floors and the
 * peers all build the result with buildRetrieveResult() per request, so they do the same work.
 * A server started with BENCH_RESULT=small answers the small variant instead (3 hits with
 * id, score and text only): there framing and dispatch weigh more than serialising the result.
 */

export const RETRIEVE_PARAMS = { query: "how do transformers handle long context windows", k: 3 };

export const INITIALIZE_PARAMS = {
  protocolVersion: 1,
  client: { name: "rcp-bench", version: "1.0.0" },
  capabilities: {},
};

const PASSAGES = [
  "Sparse attention restricts each token to a local window plus a few global tokens.",
  "Rotary position embeddings can be interpolated to extend the trained context length.",
  "Retrieval augmentation keeps the prompt short by fetching only the relevant passages.",
];

/** The result variant this process answers (scenario 1 runs each contender with both). */
export type ResultVariant = "rich" | "small";
export const RESULT_VARIANT_ENV = "BENCH_RESULT";
const SMALL = process.env[RESULT_VARIANT_ENV] === "small";

export function buildRetrieveResult(): RetrieveResult {
  return SMALL ? buildSmallRetrieveResult() : buildRichRetrieveResult();
}

function buildSmallRetrieveResult(): RetrieveResult {
  return { hits: PASSAGES.map((text, index) => ({ id: `doc-${index + 1}`, score: 0.9 - index * 0.1, text })) };
}

function buildRichRetrieveResult(): RetrieveResult {
  return {
    hits: PASSAGES.map((text, index) => ({
      id: `doc-${index + 1}`,
      score: 0.9 - index * 0.1,
      text,
      meta: { year: 2024 - index, lang: "en", tag: "long-context" },
      citation: { source: "bench-corpus", title: `Passage ${index + 1}` },
    })),
    usage: { candidates: 3, reranked: 0, latencyMs: 0 },
  };
}

/** The fixed answer a floor server gives to initialize (the peers build their own). */
export function buildInitializeResult(): Record<string, unknown> {
  return {
    protocolVersion: 1,
    server: { name: "bench-floor", version: "1.0.0" },
    capabilities: { retrieve: { maxK: 50 }, streaming: {} },
  };
}
