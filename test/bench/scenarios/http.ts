/**
 * Scenario 2: HTTP JSON over keep-alive connections: requests/s, p50/p99 latency, and the server's
 * own CPU per request (the node:http client is the heavier side on one core, so server CPU is the
 * figure that does not depend on the client keeping up).
 */
import { alternate, medianTable, reportedOnlyNotes } from "../alternate.js";
import { clientBoundNotes, isClientBound } from "../client-bound.js";
import { startHttpServer } from "../http-server.js";
import type { HttpLoadConfig, HttpLoadResult } from "../load/http-load.js";
import type { Mode } from "../modes.js";
import {
  FLOOR,
  HTTP_PEERS,
  INTERCEPTED_HTTP_PEERS,
  besideOurs,
  MCP,
  OURS,
  OURS_INTERCEPTED,
  missingOursNote,
  type HttpPeer,
} from "../peers.js";
import { cpuMicrosBetween } from "../probe-reader.js";
import { runJsonChild } from "../processes.js";
import { ratioAtLeast, ratioAtMost, type ScenarioReport, type Target } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

async function runOnce(peer: HttpPeer, mode: Mode): Promise<Record<string, number>> {
  const server = await startHttpServer(peer.script, peer.env);
  try {
    const load = (requests: number): Promise<HttpLoadResult> => {
      const config: HttpLoadConfig = {
        target: peer.target(server.url),
        requests,
        warmup: 0,
        connections: mode.http.connections,
        timeoutMs: 30_000 + requests * 2,
      };
      return runJsonChild<HttpLoadResult>({
        script: loadScript("http-load"),
        args: [JSON.stringify(config)],
        timeoutMs: config.timeoutMs + 10_000,
      });
    };
    await load(mode.http.warmup);
    const before = await server.probes.probe();
    const result = await load(mode.http.requests);
    const after = await server.probes.probe();
    const serverCpuMicrosPerRequest = cpuMicrosBetween(before, after) / mode.http.requests;
    const clientCpuMicrosPerRequest = result.clientCpuMicrosPerRequest;
    return {
      requestsPerSecond: result.requestsPerSecond,
      p50Ms: result.p50Ms,
      p99Ms: result.p99Ms,
      serverCpuMicrosPerRequest,
      clientCpuMicrosPerRequest,
      clientBound: isClientBound({ serverCpuMicrosPerRequest, clientCpuMicrosPerRequest }) ? 1 : 0,
    };
  } finally {
    await server.stop();
  }
}

export async function httpScenario(mode: Mode): Promise<ScenarioReport> {
  const contenders = besideOurs(HTTP_PEERS, INTERCEPTED_HTTP_PEERS);
  const samples = await alternate(mode.rounds, contenders, (peer) => runOnce(peer, mode), mode.reportedRounds);
  const { rows, metric } = medianTable(contenders, samples);
  const rate = (label: string): number => metric(label, "requestsPerSecond");
  const cpu = (label: string): number => metric(label, "serverCpuMicrosPerRequest");
  const targets: Target[] = [
    ratioAtLeast("HTTP req/s, ours / node:http floor", ratio(rate(OURS), rate(FLOOR)), 0.8),
    ratioAtLeast("HTTP req/s, ours / MCP SDK", ratio(rate(OURS), rate(MCP)), 2),
    ratioAtMost("HTTP server CPU per request, ours / node:http floor", ratio(cpu(OURS), cpu(FLOOR)), 1.1),
    ratioAtLeast("HTTP req/s, ours with one no-op interceptor / ours", ratio(rate(OURS_INTERCEPTED), rate(OURS)), 0.9),
  ];
  return {
    id: "2",
    title: `HTTP JSON keep-alive: ${mode.http.requests} requests over ${mode.http.connections} connections, median of ${mode.rounds} rounds`,
    rows,
    targets,
    samples: Object.fromEntries(samples),
    notes: [
      ...missingOursNote(),
      ...reportedOnlyNotes(contenders, mode.rounds, mode.reportedRounds),
      ...clientBoundNotes(samples),
      `server CPU per request, floor / ours: ${ratio(cpu(FLOOR), cpu(OURS)).toFixed(2)}x (the client-independent view of the floor target)`,
      `server CPU per request, ours with one no-op interceptor / ours: ${ratio(cpu(OURS_INTERCEPTED), cpu(OURS)).toFixed(2)}x`,
      "MCP SDK: stateless streamable HTTP with enableJsonResponse, a fresh server+transport per request (the SDK's documented stateless pattern)",
    ],
  };
}
