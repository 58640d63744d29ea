/**
 * Load generator for scenario 7 (a process of its own): sends `inFlight` requests at once to a
 * stdio server that holds each until the whole wave has arrived, waits for every answer, then has
 * the server collect garbage and report its memory; repeated for `waves`. Prints one JSON line.
 */
import { DIALECTS, type DialectName } from "./dialects.js";
import { loadConfig, reportResult } from "./main.js";
import { runPipeline } from "./pipeline.js";
import { StdioConnection, type ServerCommand } from "./stdio-connection.js";

export interface HoldLoadConfig {
  server: ServerCommand;
  dialect: DialectName;
  inFlight: number;
  waves: number;
  timeoutMs: number;
}

export interface HoldLoadResult {
  baselineRssBytes: number;
  baselineHeapBytes: number;
  /** Highest resident set size the server reached (its own getrusage maxRSS). */
  peakRssBytes: number;
  rssAfterLastWaveBytes: number;
  heapAfterFirstWaveBytes: number;
  heapAfterLastWaveBytes: number;
  collected: boolean;
}

const config = loadConfig<HoldLoadConfig>();
const connection = new StdioConnection(
  {
    ...config.server,
    nodeFlags: ["--expose-gc", ...(config.server.nodeFlags ?? [])],
    env: { ...config.server.env, BENCH_HOLD: String(config.inFlight) },
  },
  DIALECTS[config.dialect],
);
// Each wave has its own timeout in runPipeline; this bounds the whole run.
await reportResult("hold-load", config.timeoutMs * (config.waves + 1), async (): Promise<HoldLoadResult> => {
  await connection.handshake(config.timeoutMs);
  const baseline = await connection.probe();
  const afterWaves = [];
  for (let wave = 0; wave < config.waves; wave += 1) {
    await runPipeline({
      connection,
      dialect: config.dialect,
      total: config.inFlight,
      inFlight: config.inFlight,
      timeoutMs: config.timeoutMs,
      firstId: 1 + wave * config.inFlight,
    });
    afterWaves.push(await connection.probe());
  }
  await connection.close();
  const first = afterWaves[0] ?? baseline;
  const last = afterWaves.at(-1) ?? baseline;
  return {
    baselineRssBytes: baseline.rssBytes,
    baselineHeapBytes: baseline.heapUsedBytes,
    peakRssBytes: last.maxRssBytes,
    rssAfterLastWaveBytes: last.rssBytes,
    heapAfterFirstWaveBytes: first.heapUsedBytes,
    heapAfterLastWaveBytes: last.heapUsedBytes,
    collected: last.collected,
  };
});
