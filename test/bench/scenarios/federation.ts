/**
 * Scenario 9: what a federator adds (§16). Three engines answer after 2, 4 and 6 ms; the
 * federating server (`serve --federate`) fans each retrieve out to all three and fuses their
 * 30 hits. The load generator alternates a request to the slowest engine alone and one through
 * the federator, both over HTTP; the federator's added latency is the difference of their p50s.
 * The federator reaches its engines over HTTP in one variant and over stdio in the other.
 *
 * Each variant has a floor measured the same way in the same rounds: a relay that forwards each
 * request to the slowest engine alone (servers/relay-http.ts, relay-stdio.ts). Its added latency
 * is the extra hop itself (process wake-ups, loopback writes); the federator's added latency
 * minus the floor's is what the federator's own work costs.
 *
 * The HTTP variant has a second floor in the same rounds: the least federator
 * (servers/fuse-floor-http.ts), which parses, fans out to all three engines, fuses by RRF and
 * serializes on bare node:http and nothing more. Its added latency is the least a federator's
 * own work can cost: over HTTP engines the federator is gated at 1.75x it (a regression guard),
 * and the ratios to the relay are reported.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { alternate, medianTable } from "../alternate.js";
import { RETRIEVE_PARAMS } from "../fixture.js";
import { startHttpServer, type RunningHttpServer } from "../http-server.js";
import type { HttpTarget } from "../load/http-load.js";
import type { LatencyLoadConfig, LatencyLoadResult } from "../load/latency-load.js";
import type { Mode } from "../modes.js";
import { serverScript } from "../peers.js";
import { cpuMicrosBetween, ProbeReader } from "../probe-reader.js";
import { awaitLine, runJsonChild, spawnNode, stopChild } from "../processes.js";
import { ratioAtMost, type ScenarioReport, type Target } from "../report.js";
import { loadScript } from "./scripts.js";

const ENGINE = fileURLToPath(new URL("../servers/delayed-engine.js", import.meta.url));
const SERVE = fileURLToPath(new URL("../../../docs/examples/demo-engine/serve.js", import.meta.url));
const DELAYS_MS = [2, 4, 6] as const;
const engineArgs = (index: number) => ["--delay-ms", String(DELAYS_MS[index]), "--engine", `e${index}`];
const stdioEngine = (index: number) => [process.execPath, ENGINE, "--stdio", ...engineArgs(index)];

/** A process in the federator's place: its base URL, its CPU report, and how to stop it. */
type Middle = Pick<RunningHttpServer, "url" | "probes" | "stop">;

interface Contender {
  label: string;
  start(): Promise<Middle>;
}

interface Variant {
  federator: Contender;
  floor: Contender;
  /** A federator doing only its essential work, measured beside the floor (HTTP engines only). */
  leastFederator?: Contender;
}

/** The contenders a variant measures against its floor, in run order. */
function aboveFloor({ leastFederator, federator }: Variant): Contender[] {
  return leastFederator === undefined ? [federator] : [leastFederator, federator];
}

async function startFederator(registry: string): Promise<Middle> {
  const child = spawnNode({
    script: SERVE,
    args: ["--federate", registry, "--port", "0"],
    nodeFlags: ["--import", serverScript("probe-preload")],
  });
  const probes = new ProbeReader(child);
  try {
    const url = await awaitLine(
      child.stdout!,
      (line) => (line.startsWith("http://") ? line.trim() : undefined),
      15_000,
    );
    return { url, probes, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw new Error(`the federator did not start: ${(error as Error).message}; stderr: ${probes.stderr()}`, {
      cause: error,
    });
  }
}

function retrieveTarget(base: string): HttpTarget {
  const body = { jsonrpc: "2.0", id: 1, method: "retrieve", params: { ...RETRIEVE_PARAMS, k: 10 } };
  return { url: `${base}/retrieve`, body: JSON.stringify(body), headers: {} };
}

/** One round of one contender: the alternating load, and the CPU the middle process spent per call on it. */
async function measure(mode: Mode, slowest: RunningHttpServer, contender: Contender): Promise<Record<string, number>> {
  const middle = await contender.start();
  try {
    const config: LatencyLoadConfig = {
      direct: retrieveTarget(slowest.url),
      federated: retrieveTarget(middle.url),
      ...mode.federation,
      timeoutMs: 30_000 + mode.federation.requests * 100,
    };
    const before = await middle.probes.probe();
    const result = await runJsonChild<LatencyLoadResult>({
      script: loadScript("latency-load"),
      args: [JSON.stringify(config)],
      timeoutMs: config.timeoutMs + 10_000,
    });
    const after = await middle.probes.probe();
    const calls = mode.federation.requests + mode.federation.warmup;
    return { ...result, cpuMicrosPerCall: cpuMicrosBetween(before, after) / calls };
  } finally {
    await middle.stop();
  }
}

export async function federationScenario(mode: Mode): Promise<ScenarioReport> {
  const folder = mkdtempSync(join(tmpdir(), "rcp-bench-federation-"));
  const engines: RunningHttpServer[] = [];
  try {
    for (const index of DELAYS_MS.keys()) engines.push(await startHttpServer(ENGINE, {}, engineArgs(index)));
    const slowest = engines.at(-1)!;
    const registry = (name: string, entries: object[]): string => {
      const path = join(folder, name);
      writeFileSync(path, JSON.stringify({ engines: entries }));
      return path;
    };
    const httpRegistry = registry(
      "http.json",
      engines.map((engine, index) => ({ id: `e${index}`, transport: "http", url: engine.url })),
    );
    const stdioRegistry = registry(
      "stdio.json",
      DELAYS_MS.map((_, index) => ({ id: `e${index}`, transport: "stdio", command: stdioEngine(index) })),
    );
    const path = new URL(slowest.url).pathname;
    const variants: Variant[] = [
      {
        floor: {
          label: "floor: relay to the slowest engine over HTTP",
          start: () => startHttpServer(serverScript("relay-http"), {}, ["--to", slowest.url]),
        },
        leastFederator: {
          label: "least federator: parse, fan out, RRF, serialize on node:http",
          start: () =>
            startHttpServer(
              serverScript("fuse-floor-http"),
              {},
              engines.flatMap((engine) => ["--engine", engine.url]),
            ),
        },
        federator: { label: "federator, HTTP engines", start: () => startFederator(httpRegistry) },
      },
      {
        floor: {
          label: "floor: relay to the slowest engine over stdio",
          start: () =>
            startHttpServer(serverScript("relay-stdio"), {}, [
              "--path",
              path,
              "--",
              ...stdioEngine(DELAYS_MS.length - 1),
            ]),
        },
        federator: { label: "federator, stdio engines", start: () => startFederator(stdioRegistry) },
      },
    ];
    const contenders = variants.flatMap((variant) => [variant.floor, ...aboveFloor(variant)]);
    const samples = await alternate(mode.rounds, contenders, (contender) => measure(mode, slowest, contender));
    // Each round's federators against the floor of the same round, which ran just before them.
    for (const variant of variants) {
      const floors = samples.get(variant.floor.label)!;
      for (const above of aboveFloor(variant)) {
        samples.get(above.label)!.forEach((sample, round) => {
          sample.overFloorP50Ms = sample.addedP50Ms! - floors[round]!.addedP50Ms!;
        });
      }
    }
    const { rows, metric } = medianTable(contenders, samples);
    // A plain quotient, not stats' ratio(): that one is NaN when a floor's added p50 comes out
    // below zero, which tiny mode's few calls can give, and the smoke test wants a number.
    const addedRatio = (over: Contender, under: Contender) =>
      metric(over.label, "addedP50Ms") / metric(under.label, "addedP50Ms");
    // Over HTTP engines the federator is gated against the least federator, the least any
    // federator's own work costs; over stdio engines, which have none, against the relay.
    const targets: Target[] = variants.map(({ federator, floor, leastFederator }) =>
      leastFederator === undefined
        ? ratioAtMost(`${federator.label}: added p50 / the relay floor's`, addedRatio(federator, floor), 1.5)
        : ratioAtMost(
            `${federator.label}: added p50 / the least federator's`,
            addedRatio(federator, leastFederator),
            1.75,
          ),
    );
    const split = variants.map(({ federator, floor }) => {
      const ms = (name: string, label = federator.label) => metric(label, name).toFixed(2);
      return `${federator.label}: ${ms("addedP50Ms")} ms added; the floor's hop adds ${ms("addedP50Ms", floor.label)} ms, the federator ${ms("overFloorP50Ms")} ms more (median of the rounds' differences)`;
    });
    const ratios = variants.flatMap(({ federator, floor, leastFederator }) => {
      if (leastFederator === undefined) return [];
      return [
        `reported, not gated: added p50, federator / relay (HTTP engines): ${addedRatio(federator, floor).toFixed(2)}x`,
        `reported, not gated: added p50, least federator / relay (HTTP engines): ${addedRatio(leastFederator, floor).toFixed(2)}x`,
      ];
    });
    return {
      id: "9",
      title: `federation: ${mode.federation.requests} retrieves, engines answering after ${DELAYS_MS.join("/")} ms, median of ${mode.rounds} rounds`,
      rows,
      targets,
      samples: Object.fromEntries(samples),
      notes: [
        "direct = the slowest engine alone over HTTP; federated = the federator over HTTP fanning out to all three, fusing 30 hits by RRF",
        "floor = a relay in the federator's place that forwards each request to the slowest engine alone and its answer back, unparsed",
        "least federator = bare node:http parsing the request, sending it to all three engines, parsing their answers, fusing 30 hits by RRF and serializing the result, nothing else",
        "one keep-alive connection each, requests alternating one at a time; the CPU of 5 processes shares the machine's cores",
        "cpuMicrosPerCall = the middle process's CPU over warm-up and measured calls, per call through it",
        ...split,
        ...ratios,
      ],
    };
  } finally {
    await Promise.all(engines.map((engine) => engine.stop()));
    rmSync(folder, { recursive: true, force: true });
  }
}
