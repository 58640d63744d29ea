/**
 * What every bench server installs beside its protocol code: a self-report of CPU time and
 * memory on SIGUSR2 (written to stderr, never stdout, which carries protocol frames), and an
 * optional gate that holds each request until a whole wave of BENCH_HOLD requests is in flight.
 */

export const PROBE_PREFIX = "BENCH-PROBE ";
/** Written by count-ajv-compiles.ts on exit. */
export const COMPILE_COUNT_PREFIX = "BENCH-AJV-COMPILES ";
/** Written by stamp-writes.ts on SIGUSR2. */
export const WRITES_PREFIX = "BENCH-WRITES ";
/** Written by report-builtins.ts on exit. */
export const UNUSED_BUILTINS_PREFIX = "BENCH-UNUSED-BUILTINS ";

export interface ProbeReport {
  cpuUserMicros: number;
  cpuSystemMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  maxRssBytes: number;
  collected: boolean;
}

export function installProbe(): void {
  process.on("SIGUSR2", () => {
    // CPU first: the forced collections below are the probe's work, not the server's.
    const cpu = process.cpuUsage();
    const gc = (globalThis as { gc?: () => void }).gc;
    // Two passes: the first may only queue finalizers that free memory in the second.
    gc?.();
    gc?.();
    const memory = process.memoryUsage();
    const report: ProbeReport = {
      cpuUserMicros: cpu.user,
      cpuSystemMicros: cpu.system,
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      collected: gc !== undefined,
    };
    process.stderr.write(`${PROBE_PREFIX}${JSON.stringify(report)}\n`);
  });
}

/**
 * Returns a function each request awaits: when BENCH_HOLD=n, the n-th arrival releases the
 * whole wave at once (then the next wave starts); without it, requests pass straight through.
 */
export function createHoldGate(): (() => Promise<void>) | undefined {
  const waveSize = Number(process.env.BENCH_HOLD ?? 0);
  if (!(waveSize > 0)) return undefined;
  let waiting: Array<() => void> = [];
  return () =>
    new Promise<void>((release) => {
      waiting.push(release);
      if (waiting.length < waveSize) return;
      const wave = waiting;
      waiting = [];
      for (const go of wave) go();
    });
}

/** The SSE workload (BENCH_STREAM="<events>x<intervalMs>"), or undefined for the plain one. */
export function streamPlan(): { events: number; intervalMs: number } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(process.env.BENCH_STREAM ?? "");
  if (!match) return undefined;
  return { events: Number(match[1]), intervalMs: Number(match[2]) };
}

/** Wall-clock milliseconds comparable across processes on one machine (carried in each progress frame). */
export function sharedClockMs(): number {
  return performance.timeOrigin + performance.now();
}
