export { fuse, compareFused, DEFAULT_ALPHA, DEFAULT_RRF_K } from "./fuse.js";
export type { Contribution, FusedHit, FusibleHit, FusionMethod, FusionOptions, RankedList } from "./types.js";
