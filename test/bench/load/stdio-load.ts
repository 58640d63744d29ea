/**
 * Load generator for scenario 1 (a process of its own): spawns the stdio server, warms it up,
 * then times `requests` pipelined retrieves with `inFlight` outstanding, and reads the server's
 * own CPU time across exactly the measured phase. Prints one JSON line.
 */
import { performance } from "node:perf_hooks";
import { cpuMicrosBetween } from "../probe-reader.js";
import { DIALECTS, type DialectName } from "./dialects.js";
import { loadConfig, reportResult } from "./main.js";
import { runPipeline } from "./pipeline.js";
import { StdioConnection, type ServerCommand } from "./stdio-connection.js";

export interface StdioLoadConfig {
  server: ServerCommand;
  dialect: DialectName;
  requests: number;
  warmup: number;
  inFlight: number;
  timeoutMs: number;
}

export interface StdioLoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  serverCpuMicrosPerRequest: number;
  /** The load generator's own CPU per request: shows when the client, not the server, is the limit. */
  clientCpuMicrosPerRequest: number;
}

const config = loadConfig<StdioLoadConfig>();
const connection = new StdioConnection(config.server, DIALECTS[config.dialect]);
await reportResult("stdio-load", 2 * config.timeoutMs, async (): Promise<StdioLoadResult> => {
  await connection.handshake(config.timeoutMs);
  const common = { connection, dialect: config.dialect, inFlight: config.inFlight, timeoutMs: config.timeoutMs };
  await runPipeline({ ...common, total: config.warmup, firstId: 1 });
  const before = await connection.probe();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  await runPipeline({ ...common, total: config.requests, firstId: 1 + config.warmup });
  const seconds = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientBefore);
  const after = await connection.probe();
  await connection.close();
  return {
    requests: config.requests,
    seconds,
    requestsPerSecond: config.requests / seconds,
    serverCpuMicrosPerRequest: cpuMicrosBetween(before, after) / config.requests,
    clientCpuMicrosPerRequest: (clientCpu.user + clientCpu.system) / config.requests,
  };
});
