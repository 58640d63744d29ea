/**
 * The bounded, fixed-seed fuzz campaign of `npm test` (the long one is `npm run fuzz`):
 * generated and mutated RCP/1 frames, random JSON and random bytes against the hardening
 * server over stdio and over HTTP. Every request with a usable id is answered exactly once
 * with that id, no notification is answered, stdout stays line-framed JSON, the process
 * stays up and its heap returns to its baseline (§4.5, §4.7, §5.1, §11, §13.1).
 */
import { afterAll, describe, expect, it } from "vitest";
import { runCampaign } from "./campaign.js";
import { httpTarget, stdioTarget, type FuzzTarget } from "./targets.js";

const SEED = 20261129;
const RUNS = 120;
const opened: FuzzTarget[] = [];
afterAll(() => opened.forEach((target) => target.close()));

describe("fuzzing the server runtime (fast-check, fixed seed)", () => {
  it.each([
    ["stdio", stdioTarget],
    ["HTTP", httpTarget],
  ])(
    "over %s: every generated sequence is answered by the model, and the heap returns to baseline",
    async (_name, start) => {
      const target = await start();
      opened.push(target);
      const result = await runCampaign(target, { seed: SEED, numRuns: RUNS, maxHeapGrowthBytes: 16 * 1024 * 1024 });
      expect(result.failure).toBeUndefined();
      expect(result.counts.failuresFound).toBe(0);
      expect(result.counts.framesFuzzed).toBeGreaterThan(RUNS);
      expect(result.counts.responsesChecked).toBeGreaterThan(RUNS);
      expect(target.alive).toBe(true);
    },
  );
});
