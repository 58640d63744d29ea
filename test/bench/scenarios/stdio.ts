/** Scenario 1: stdio, pipelined: requests/s and the server's own CPU time per request. */
import { alternate, medianTable } from "../alternate.js";
import type { StdioLoadConfig, StdioLoadResult } from "../load/stdio-load.js";
import type { Mode } from "../modes.js";
import { FLOOR, INTERCEPTED_STDIO_PEERS, MCP, OURS, OURS_INTERCEPTED, STDIO_PEERS, missingOursNote } from "../peers.js";
import { runJsonChild } from "../processes.js";
import { ratioAtLeast, type ScenarioReport, type Target } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

export async function stdioScenario(mode: Mode): Promise<ScenarioReport> {
  const contenders = [...STDIO_PEERS, ...INTERCEPTED_STDIO_PEERS];
  const samples = await alternate(mode.rounds, contenders, async (peer) => {
    const config: StdioLoadConfig = {
      server: peer.server,
      dialect: peer.dialect,
      ...mode.stdio,
      timeoutMs: 30_000 + mode.stdio.requests,
    };
    const result = await runJsonChild<StdioLoadResult>({
      script: loadScript("stdio-load"),
      args: [JSON.stringify(config)],
      timeoutMs: config.timeoutMs + 10_000,
    });
    return {
      requestsPerSecond: result.requestsPerSecond,
      serverCpuMicrosPerRequest: result.serverCpuMicrosPerRequest,
      clientCpuMicrosPerRequest: result.clientCpuMicrosPerRequest,
    };
  });
  const { rows, metric } = medianTable(contenders, samples);
  const rate = (label: string): number => metric(label, "requestsPerSecond");
  const cpu = (label: string): number => metric(label, "serverCpuMicrosPerRequest");
  const targets: Target[] = [
    ratioAtLeast("stdio req/s, ours / floor", ratio(rate(OURS), rate(FLOOR)), 0.8),
    ratioAtLeast("stdio req/s, ours / MCP SDK", ratio(rate(OURS), rate(MCP)), 3),
    ratioAtLeast("stdio req/s, ours with one no-op interceptor / ours", ratio(rate(OURS_INTERCEPTED), rate(OURS)), 0.9),
  ];
  return {
    id: "1",
    title: `stdio pipelined: ${mode.stdio.requests} requests, ${mode.stdio.inFlight} in flight, median of ${mode.rounds} rounds`,
    rows,
    targets,
    samples: Object.fromEntries(samples),
    notes: [
      ...missingOursNote(),
      `floor / MCP SDK req/s: ${ratio(rate(FLOOR), rate(MCP)).toFixed(2)}x, the ceiling of ours / MCP SDK while ours stays below the floor`,
      `server CPU per request, MCP SDK / ours: ${ratio(cpu(MCP), cpu(OURS)).toFixed(2)}x; floor / ours: ${ratio(cpu(FLOOR), cpu(OURS)).toFixed(2)}x`,
      `server CPU per request, ours with one no-op interceptor / ours: ${ratio(cpu(OURS_INTERCEPTED), cpu(OURS)).toFixed(2)}x`,
      "serverCpuMicrosPerRequest is process.cpuUsage reported by the server itself across the measured phase only",
      "vscode-jsonrpc frames with Content-Length headers (its own stdio framing); the others with NDJSON",
    ],
  };
}
