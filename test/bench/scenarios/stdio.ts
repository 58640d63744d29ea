/**
 * Scenario 1: stdio, pipelined: requests/s and the server's own CPU time per request, with the
 * bench fixture's rich result and with a small one (3 hits, id/score/text), where framing and
 * dispatch weigh more than serialising. A contender whose load generator was the limit is flagged.
 */
import { alternate, medianTable, reportedOnlyNotes } from "../alternate.js";
import { clientBoundNotes, isClientBound } from "../client-bound.js";
import type { StdioLoadConfig, StdioLoadResult } from "../load/stdio-load.js";
import type { Mode, StdioWorkload } from "../modes.js";
import {
  FLOOR,
  INTERCEPTED_STDIO_PEERS,
  besideOurs,
  MCP,
  OURS,
  OURS_INTERCEPTED,
  REFERENCE,
  REFERENCE_STDIO_PEERS,
  STDIO_PEERS,
  missingOursNote,
  missingReferenceNote,
  variantLabel,
  withResultVariant,
  type StdioPeer,
} from "../peers.js";
import { runJsonChild } from "../processes.js";
import { ratioAtLeast, ratioAtMost, type ScenarioReport, type Target } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

/** The small variant runs the contenders its targets compare. */
const SMALL_RESULT_CONTENDERS = new Set([OURS, FLOOR, REFERENCE, MCP]);

/** One round of pipelined retrieves against `peer` (a load generator process of its own). */
export async function stdioRound(peer: StdioPeer, workload: StdioWorkload): Promise<Record<string, number>> {
  const config: StdioLoadConfig = {
    server: peer.server,
    dialect: peer.dialect,
    ...workload,
    timeoutMs: 30_000 + workload.requests,
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
    clientBound: isClientBound(result) ? 1 : 0,
  };
}

export async function stdioScenario(mode: Mode): Promise<ScenarioReport> {
  const rich = besideOurs([...STDIO_PEERS, ...REFERENCE_STDIO_PEERS], INTERCEPTED_STDIO_PEERS);
  const small = rich
    .filter((peer) => SMALL_RESULT_CONTENDERS.has(peer.label))
    .map((peer) => withResultVariant(peer, "small"));
  const contenders = [...rich, ...small];
  const samples = await alternate(mode.rounds, contenders, (peer) => stdioRound(peer, mode.stdio), mode.reportedRounds);
  const { rows, metric } = medianTable(contenders, samples);
  const rate = (label: string): number => metric(label, "requestsPerSecond");
  const cpu = (label: string): number => metric(label, "serverCpuMicrosPerRequest");
  const smallOf = (label: string): string => variantLabel(label, "small");
  const referenceTarget = (name: string, variant: (label: string) => string): Target[] =>
    REFERENCE_STDIO_PEERS.length === 0
      ? []
      : [ratioAtLeast(name, ratio(rate(variant(OURS)), rate(variant(REFERENCE))), 1.2)];
  const same = (label: string): string => label;
  const targets: Target[] = [
    ratioAtLeast("stdio req/s, ours / floor", ratio(rate(OURS), rate(FLOOR)), 0.8),
    ratioAtLeast("stdio req/s, ours / MCP SDK", ratio(rate(OURS), rate(MCP)), 3),
    ...referenceTarget(`stdio req/s, ours / ${REFERENCE}`, same),
    ratioAtMost("stdio server CPU per request, ours / floor", ratio(cpu(OURS), cpu(FLOOR)), 1),
    ratioAtLeast("stdio req/s, ours with one no-op interceptor / ours", ratio(rate(OURS_INTERCEPTED), rate(OURS)), 0.9),
    ratioAtMost(
      "stdio small result: server CPU per request, ours / floor",
      ratio(cpu(smallOf(OURS)), cpu(smallOf(FLOOR))),
      1.2,
    ),
    ratioAtLeast("stdio small result: req/s, ours / MCP SDK", ratio(rate(smallOf(OURS)), rate(smallOf(MCP))), 3),
    ...referenceTarget(`stdio small result: req/s, ours / ${REFERENCE}`, smallOf),
  ];
  return {
    id: "1",
    title: `stdio pipelined: ${mode.stdio.requests} requests, ${mode.stdio.inFlight} in flight, rich and small results, median of ${mode.rounds} rounds`,
    rows,
    targets,
    samples: Object.fromEntries(samples),
    notes: [
      ...missingOursNote(),
      ...missingReferenceNote(),
      ...reportedOnlyNotes(contenders, mode.rounds, mode.reportedRounds),
      ...clientBoundNotes(samples),
      `floor / MCP SDK req/s: ${ratio(rate(FLOOR), rate(MCP)).toFixed(2)}x, the ceiling of ours / MCP SDK while ours stays below the floor`,
      `server CPU per request, MCP SDK / ours: ${ratio(cpu(MCP), cpu(OURS)).toFixed(2)}x; floor / ours: ${ratio(cpu(FLOOR), cpu(OURS)).toFixed(2)}x`,
      `server CPU per request, ours with one no-op interceptor / ours: ${ratio(cpu(OURS_INTERCEPTED), cpu(OURS)).toFixed(2)}x`,
      "serverCpuMicrosPerRequest is process.cpuUsage reported by the server itself across the measured phase only; clientBound 1: the load generator used more CPU per request than the server",
      "small result: 3 hits with id, score and text only (BENCH_RESULT=small); the rich one adds meta, citation and usage",
      "vscode-jsonrpc frames with Content-Length headers (its own stdio framing); the others with NDJSON",
    ],
  };
}
