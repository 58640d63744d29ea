/**
 * Scenario 9: what a federator adds (§16). Three engines answer after 2, 4 and 6 ms; the
 * federating server (`serve --federate`) fans each retrieve out to all three and fuses their
 * 30 hits. Every contender below is started once; in each round one load generator cycles
 * through a request to the slowest engine alone and one through each contender, all over HTTP; a
 * contender's added latency is the difference of their p50s. The federator reaches its engines
 * over HTTP in one variant and over stdio in the other.
 *
 * Each variant has a floor measured the same way in the same cycles: a relay that forwards each
 * request to the slowest engine alone (servers/relay-http.ts, relay-stdio.ts). Its added latency
 * is the extra hop itself (process wake-ups, loopback writes); the federator's added latency
 * minus the floor's is what the federator's own work costs.
 *
 * Each variant has a second floor in the same cycles: the least federator (servers/fuse-floor.ts),
 * which parses, fans out to the same three engines, fuses by RRF and serializes on bare
 * node:http and nothing more. Its added latency is the least a federator's own work can cost:
 * the federator is gated at 1.75x it (a regression guard), and the ratios to the relay are
 * reported.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { medianTable } from "../alternate.js";
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
  /** A federator doing only its essential work over the same engines, measured beside the floor. */
  leastFederator: Contender;
}

/** The contenders a variant measures against its floor, in run order. */
function aboveFloor({ leastFederator, federator }: Variant): Contender[] {
  return [leastFederator, federator];
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

/** Every contender started at once; if one fails to start, the others are stopped. */
async function startAll(contenders: readonly Contender[]): Promise<Middle[]> {
  const started = await Promise.allSettled(contenders.map((contender) => contender.start()));
  const middles = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const failed = started.find((outcome) => outcome.status === "rejected");
  if (failed === undefined) return middles;
  await Promise.all(middles.map((middle) => middle.stop()));
  throw failed.reason;
}

/** One round: a load generator cycling through the slowest engine and each middle in turn, and the CPU each middle spent per call. */
async function measureRound(
  mode: Mode,
  slowest: RunningHttpServer,
  middles: readonly Middle[],
): Promise<Array<Record<string, number>>> {
  const config: LatencyLoadConfig = {
    direct: retrieveTarget(slowest.url),
    middles: middles.map((middle) => retrieveTarget(middle.url)),
    ...mode.federation,
    timeoutMs: 30_000 + mode.federation.requests * 20 * middles.length,
  };
  const before = await Promise.all(middles.map((middle) => middle.probes.probe()));
  const result = await runJsonChild<LatencyLoadResult>({
    script: loadScript("latency-load"),
    args: [JSON.stringify(config)],
    timeoutMs: config.timeoutMs + 10_000,
  });
  const after = await Promise.all(middles.map((middle) => middle.probes.probe()));
  const calls = mode.federation.requests + mode.federation.warmup;
  return result.middles.map((latency, index) => ({
    directP50Ms: result.directP50Ms,
    directP99Ms: result.directP99Ms,
    ...latency,
    cpuMicrosPerCall: cpuMicrosBetween(before[index]!, after[index]!) / calls,
  }));
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
          label: "least federator, HTTP engines: parse, fan out, RRF, serialize on node:http",
          start: () =>
            startHttpServer(serverScript("fuse-floor"), {}, [
              "--path",
              path,
              ...engines.flatMap((engine) => ["--engine", engine.url]),
            ]),
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
        leastFederator: {
          label: "least federator, stdio engines: parse, fan out, RRF, serialize on node:http",
          start: () =>
            startHttpServer(serverScript("fuse-floor"), {}, [
              "--path",
              path,
              ...DELAYS_MS.flatMap((_, index) => ["--stdio", JSON.stringify(stdioEngine(index))]),
            ]),
        },
        federator: { label: "federator, stdio engines", start: () => startFederator(stdioRegistry) },
      },
    ];
    const contenders = variants.flatMap((variant) => [variant.floor, ...aboveFloor(variant)]);
    const samples = new Map<string, Array<Record<string, number>>>(contenders.map(({ label }) => [label, []]));
    const middles = await startAll(contenders);
    try {
      for (let round = 0; round < mode.rounds; round += 1) {
        const measured = await measureRound(mode, slowest, middles);
        contenders.forEach(({ label }, index) => samples.get(label)!.push(measured[index]!));
      }
    } finally {
      await Promise.all(middles.map((middle) => middle.stop()));
    }
    // Each round's federators against the floor of the same round, measured in the same cycles.
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
    // The federator is gated against the least federator over the same engines, the least any
    // federator's own work costs (a regression guard); the relay, which does none of that work,
    // is reported.
    const targets: Target[] = variants.map(({ federator, leastFederator }) =>
      ratioAtMost(`${federator.label}: added p50 / the least federator's`, addedRatio(federator, leastFederator), 1.75),
    );
    const split = variants.map(({ federator, floor }) => {
      const ms = (name: string, label = federator.label) => metric(label, name).toFixed(2);
      return `${federator.label}: ${ms("addedP50Ms")} ms added; the floor's hop adds ${ms("addedP50Ms", floor.label)} ms, the federator ${ms("overFloorP50Ms")} ms more (median of the rounds' differences)`;
    });
    const ratios = variants.flatMap(({ federator, floor, leastFederator }) => [
      `reported, not gated: added p50, ${federator.label} / its relay: ${addedRatio(federator, floor).toFixed(2)}x`,
      `reported, not gated: added p50, ${leastFederator.label.split(":")[0]} / its relay: ${addedRatio(leastFederator, floor).toFixed(2)}x`,
    ]);
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
        "one keep-alive connection each, requests one at a time in cycles of one to the slowest engine and one through each middle, every middle started once for all rounds; the CPU of every process shares the machine's cores",
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
