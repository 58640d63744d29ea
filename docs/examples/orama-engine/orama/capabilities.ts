/**
 * What the engine advertises (§6): what the store implements, no more, so the runtime's gates
 * (-32005 for an unadvertised mode or operator), clamps (`maxK`) and filter checks apply to the
 * truth. Declared L2 (§14.3): L1's hybrid retrieval, filter and citations, plus streaming, logs
 * and determinism (the same index answers the same query the same way).
 */
import { FILTER_FIELDS, FILTER_OPERATORS } from "./filter.js";
import type { SearchMode } from "./store.js";

export const oramaCapabilities = {
  retrieve: {
    maxK: 50,
    modes: ["dense", "sparse", "hybrid"] satisfies SearchMode[],
    defaultMode: "hybrid" as const,
    deterministic: true as const,
  },
  index: { writable: true as const },
  filter: { fields: { ...FILTER_FIELDS }, operators: [...FILTER_OPERATORS] },
  streaming: {},
  citations: {},
  log: {},
};
