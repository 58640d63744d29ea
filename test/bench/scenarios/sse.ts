/**
 * Scenario 3: SSE. The handler yields progress events at a fixed interval, each stamped with the
 * shared clock at the yield; the client measures yield-to-read delay and checks that no read
 * carries two progress frames (no coalescing). That no frame waits for the next is checked where
 * it happens, in the server: a preload (servers/stamp-writes.ts) notes when each frame reached
 * its socket, and none may be written after the next yield. The client's own count of frames read
 * after the next yield is shown too, but it counts load as well: a reader descheduled for longer
 * than the interval reads late a frame the server wrote on time.
 */
import { alternate, medianRoundRatio, medianTable } from "../alternate.js";
import { startHttpServer } from "../http-server.js";
import type { SseLoadConfig, SseLoadResult } from "../load/sse-load.js";
import type { Mode } from "../modes.js";
import {
  besideOurs,
  FLOOR,
  HTTP_PEERS,
  type HttpPeer,
  MCP,
  OURS,
  OURS_RESUMABLE,
  RESUMABLE_HTTP_PEERS,
  missingOursNote,
  serverScript,
} from "../peers.js";
import { runJsonChild } from "../processes.js";
import type { ScenarioReport, Target } from "../report.js";
import { median } from "../stats.js";
import { loadScript } from "./scripts.js";

export async function sseScenario(mode: Mode): Promise<ScenarioReport> {
  const { events, intervalMs, streams } = mode.sse;
  const contenders = besideOurs(
    HTTP_PEERS.filter((peer) => [OURS, FLOOR, MCP].includes(peer.label)),
    RESUMABLE_HTTP_PEERS,
  );
  const samples = await alternate(mode.rounds, contenders, (peer) => sseRound(peer, mode.sse));
  const { rows, metric } = medianTable(contenders, samples);
  const worst = (name: string): number =>
    Math.max(...(samples.get(OURS) ?? []).map((sample) => sample[name] ?? Number.NaN));
  const targets: Target[] = [
    {
      name: "SSE yield-to-read p50, ours",
      measured: metric(OURS, "delayP50Ms"),
      threshold: 2,
      kind: "max",
      unit: " ms",
    },
    {
      name: "SSE yield-to-read p50, resumable (memory store) / off, median of the rounds' ratios",
      measured: medianRoundRatio(samples, OURS_RESUMABLE, OURS, "delayP50Ms"),
      threshold: 1.1,
      kind: "max",
      unit: "x",
    },
    {
      name: "SSE reads carrying 2+ progress frames, ours (all rounds)",
      measured: worst("coalescedReads"),
      threshold: 0,
      kind: "max",
      unit: "",
    },
    {
      name: "SSE frames written only after the next was yielded, ours (all rounds)",
      measured: worst("lateWrites"),
      threshold: 0,
      kind: "max",
      unit: "",
    },
  ];
  return {
    id: "3",
    title: `SSE: ${streams} streams x ${events} progress events ${intervalMs} ms apart, median of ${mode.rounds} rounds`,
    rows,
    targets,
    samples: Object.fromEntries(samples),
    notes: [
      ...missingOursNote(),
      "delay = client read time - yield time carried in the frame (performance.timeOrigin + now, same machine)",
      "minArrivalGapMs near the interval shows frames reach the client at distinct times, one per read",
      "writeDelayP50Ms: the server's share of the delay, yield to the frame's socket write",
      "lateWrites: frames the server wrote only after yielding the next (it held them); lateFrames: frames the client read only after the next yield, which load alone causes when the reader is descheduled for longer than the interval",
    ],
  };
}

/** One round of one contender: its server started with the write stamps preloaded, `streams` streams read one after another. */
export async function sseRound(
  peer: HttpPeer,
  { events, intervalMs, streams }: Mode["sse"],
): Promise<Record<string, number>> {
  const server = await startHttpServer(
    peer.script,
    { ...peer.env, BENCH_STREAM: `${events}x${intervalMs}` },
    [],
    ["--import", serverScript("stamp-writes")],
  );
  try {
    const config: SseLoadConfig = {
      target: peer.target(server.url, { progressToken: "bench" }),
      streams,
      timeoutMs: 30_000 + streams * events * intervalMs * 2,
    };
    const result = await runJsonChild<SseLoadResult>({
      script: loadScript("sse-load"),
      args: [JSON.stringify(config)],
      timeoutMs: config.timeoutMs + 10_000,
    });
    if (result.frames !== streams * events || result.finalFrames !== streams) {
      throw new Error(
        `${peer.label}: ${result.frames} progress / ${result.finalFrames} final frames, expected ${streams * events} / ${streams}`,
      );
    }
    const writes = await server.probes.progressWrites();
    if (writes.length !== result.frames)
      throw new Error(`${peer.label}: ${writes.length} progress writes stamped, ${result.frames} read`);
    return { ...result, ...writeTiming(writes) };
  } finally {
    await server.stop();
  }
}

/**
 * From [yielded at, written at] per progress frame (streams run one after another): frames
 * written only after the next frame's yield, and the median and longest yield-to-write delay
 * (the server's share of the yield-to-read delay).
 */
function writeTiming(writes: ReadonlyArray<[number, number]>): {
  lateWrites: number;
  writeDelayP50Ms: number;
  writeDelayMaxMs: number;
} {
  const byYield = [...writes].sort((a, b) => a[0] - b[0]);
  let lateWrites = 0;
  let writeDelayMaxMs = 0;
  byYield.forEach(([yieldedAt, writtenAt], index) => {
    const nextYield = byYield[index + 1]?.[0] ?? Number.POSITIVE_INFINITY;
    if (writtenAt > nextYield) lateWrites += 1;
    writeDelayMaxMs = Math.max(writeDelayMaxMs, writtenAt - yieldedAt);
  });
  return {
    lateWrites,
    writeDelayP50Ms: median(writes.map(([yieldedAt, writtenAt]) => writtenAt - yieldedAt)),
    writeDelayMaxMs,
  };
}
