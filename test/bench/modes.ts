/** Workload sizes of each run mode: `tiny` for the smoke test, `quick` (under 4 minutes on 2 cores) and `full`. */

export type ModeName = "tiny" | "quick" | "full";

export interface StdioWorkload {
  requests: number;
  warmup: number;
  inFlight: number;
}

export interface Mode {
  name: ModeName;
  /** A B A B ... rounds per comparative scenario; figures are medians over them. */
  rounds: number;
  /** Rounds of the contenders no target reads (reported figures only), out of `rounds`. */
  reportedRounds: number;
  stdio: StdioWorkload;
  /** Scenarios 14 and 16: pipelined retrieves of engines that search a corpus, each many times slower than scenario 1's servers. */
  engines: StdioWorkload;
  http: { requests: number; warmup: number; connections: number };
  sse: { streams: number; events: number; intervalMs: number };
  startup: { rounds: number };
  validation: { calls: number };
  /**
   * Cold runs on RCP/1 (warmUp: one untimed run first), one-file edits under --watch, and one run
   * per folder of RCP/1 plus that many synthetic methods.
   */
  /**
   * `scaleMethods`: folder sizes (methods in all) for the growth figures beyond RCP/1 itself,
   * whose cold runs give the smallest size; with it, two make the marginal-cost target.
   */
  generator: { coldRounds: number; warmUp: boolean; watchEdits: number; scaleMethods: readonly number[] };
  memory: { inFlight: number; waves: number };
  /** Scenario 9: measured cycles (one direct request and one through each contender) per round, after `warmup` cycles. */
  federation: { requests: number; warmup: number };
  /** Scenario 17: resumable streams held open at once for the Redis memory figure, and calls cut after every frame. */
  resume: { streams: number; calls: number };
  /** Scenario 12: sequential bridge/relay retrieve pairs, and pipelined calls per throughput round. */
  mcp: { latencyRequests: number; throughputRequests: number; warmup: number; inFlight: number };
}

export const MODES: Record<ModeName, Mode> = {
  tiny: {
    name: "tiny",
    rounds: 1,
    reportedRounds: 1,
    stdio: { requests: 300, warmup: 100, inFlight: 64 },
    engines: { requests: 300, warmup: 100, inFlight: 64 },
    http: { requests: 200, warmup: 64, connections: 16 },
    sse: { streams: 1, events: 5, intervalMs: 10 },
    startup: { rounds: 1 },
    validation: { calls: 2_000 },
    generator: { coldRounds: 1, warmUp: false, watchEdits: 1, scaleMethods: [19, 20] },
    memory: { inFlight: 300, waves: 2 },
    federation: { requests: 20, warmup: 5 },
    mcp: { latencyRequests: 10, throughputRequests: 100, warmup: 5, inFlight: 16 },
    resume: { streams: 5, calls: 2 },
  },
  quick: {
    name: "quick",
    rounds: 3,
    reportedRounds: 1,
    stdio: { requests: 10_000, warmup: 2_000, inFlight: 64 },
    engines: { requests: 1_500, warmup: 300, inFlight: 64 },
    http: { requests: 1_000, warmup: 200, connections: 64 },
    sse: { streams: 5, events: 10, intervalMs: 10 },
    startup: { rounds: 5 },
    validation: { calls: 100_000 },
    generator: { coldRounds: 3, warmUp: false, watchEdits: 3, scaleMethods: [150, 300] },
    memory: { inFlight: 10_000, waves: 2 },
    federation: { requests: 100, warmup: 30 },
    mcp: { latencyRequests: 200, throughputRequests: 2_000, warmup: 60, inFlight: 32 },
    resume: { streams: 50, calls: 4 },
  },
  full: {
    name: "full",
    rounds: 5,
    reportedRounds: 5,
    stdio: { requests: 50_000, warmup: 5_000, inFlight: 64 },
    engines: { requests: 10_000, warmup: 2_000, inFlight: 64 },
    http: { requests: 6_000, warmup: 1_000, connections: 64 },
    sse: { streams: 20, events: 10, intervalMs: 20 },
    startup: { rounds: 15 },
    validation: { calls: 500_000 },
    generator: { coldRounds: 5, warmUp: true, watchEdits: 5, scaleMethods: [150, 300] },
    memory: { inFlight: 10_000, waves: 3 },
    federation: { requests: 1_500, warmup: 300 },
    mcp: { latencyRequests: 1_000, throughputRequests: 10_000, warmup: 300, inFlight: 32 },
    resume: { streams: 100, calls: 30 },
  },
};
