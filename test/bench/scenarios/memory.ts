/**
 * Scenario 7: memory with a wave of requests all in flight at once: peak RSS, RSS and heap after
 * the wave completes and the server collects garbage, and heap growth across waves (a leak shows
 * as heap that keeps growing after GC from one identical wave to the next).
 */
import type { HoldLoadConfig, HoldLoadResult } from "../load/hold-load.js";
import type { Mode } from "../modes.js";
import { FLOOR, OURS, STDIO_PEERS, missingOursNote } from "../peers.js";
import { runJsonChild } from "../processes.js";
import type { ScenarioReport, Target } from "../report.js";
import { loadScript } from "./scripts.js";

const MIB = 1024 * 1024;

export async function memoryScenario(mode: Mode): Promise<ScenarioReport> {
  const contenders = STDIO_PEERS.filter((peer) => peer.label === OURS || peer.label === FLOOR);
  const rows = [];
  for (const peer of contenders) {
    const config: HoldLoadConfig = { server: peer.server, dialect: peer.dialect, ...mode.memory, timeoutMs: 60_000 };
    const result = await runJsonChild<HoldLoadResult>({
      script: loadScript("hold-load"),
      args: [JSON.stringify(config)],
      timeoutMs: config.timeoutMs * mode.memory.waves + 10_000,
    });
    if (!result.collected) throw new Error(`${peer.label} ran without --expose-gc`);
    rows.push({
      label: peer.label,
      metrics: {
        baselineRssMiB: result.baselineRssBytes / MIB,
        peakRssMiB: result.peakRssBytes / MIB,
        rssAfterGcMiB: result.rssAfterLastWaveBytes / MIB,
        baselineHeapMiB: result.baselineHeapBytes / MIB,
        heapAfterGcMiB: result.heapAfterLastWaveBytes / MIB,
        heapGrowthFirstToLastWaveKiB: (result.heapAfterLastWaveBytes - result.heapAfterFirstWaveBytes) / 1024,
        peakKiBPerHeldRequest: (result.peakRssBytes - result.baselineRssBytes) / 1024 / mode.memory.inFlight,
      },
    });
  }
  const growth = rows.find((row) => row.label === OURS)?.metrics.heapGrowthFirstToLastWaveKiB ?? Number.NaN;
  const targets: Target[] = [
    {
      name: "no leak: ours' heap after GC, last wave - first wave",
      measured: growth,
      threshold: 1024,
      kind: "max",
      unit: " KiB",
    },
  ];
  return {
    id: "7",
    title: `memory: ${mode.memory.waves} waves of ${mode.memory.inFlight} requests in flight at once (held until all arrive)`,
    rows,
    targets,
    notes: [
      ...missingOursNote(),
      "figures are the server's own process.memoryUsage/getrusage after global.gc(), asked for by signal",
    ],
  };
}
