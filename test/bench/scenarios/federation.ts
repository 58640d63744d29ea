/**
 * Scenario 9: what a federator adds (§16). Three engines answer after 2, 4 and 6 ms; the
 * federating server (`serve --federate`) fans each retrieve out to all three and fuses their
 * 30 hits. The load generator alternates a request to the slowest engine alone and one through
 * the federator, both over HTTP; the federator's added latency is the difference of their p50s.
 * The federator reaches its engines over HTTP in one variant and over stdio in the other.
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
import { awaitLine, runJsonChild, spawnNode, stopChild } from "../processes.js";
import type { ScenarioReport, Target } from "../report.js";
import { loadScript } from "./scripts.js";

const ENGINE = fileURLToPath(new URL("../servers/delayed-engine.js", import.meta.url));
const SERVE = fileURLToPath(new URL("../../../examples/demo-engine/serve.js", import.meta.url));
const DELAYS_MS = [2, 4, 6] as const;
const engineArgs = (index: number) => ["--delay-ms", String(DELAYS_MS[index]), "--engine", `e${index}`];

interface Variant {
  label: string;
  registry: string;
}

async function startFederator(registry: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawnNode({ script: SERVE, args: ["--federate", registry, "--port", "0"] });
  try {
    const url = await awaitLine(
      child.stdout!,
      (line) => (line.startsWith("http://") ? line.trim() : undefined),
      15_000,
    );
    return { url, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw new Error(`the federator did not start: ${(error as Error).message}`);
  }
}

function retrieveTarget(base: string): HttpTarget {
  const body = { jsonrpc: "2.0", id: 1, method: "retrieve", params: { ...RETRIEVE_PARAMS, k: 10 } };
  return { url: `${base}/retrieve`, body: JSON.stringify(body), headers: {} };
}

export async function federationScenario(mode: Mode): Promise<ScenarioReport> {
  const folder = mkdtempSync(join(tmpdir(), "rcp-bench-federation-"));
  const engines: RunningHttpServer[] = [];
  try {
    for (const index of DELAYS_MS.keys()) engines.push(await startHttpServer(ENGINE, {}, engineArgs(index)));
    const write = (name: string, entries: object[]): string => {
      const path = join(folder, name);
      writeFileSync(path, JSON.stringify({ engines: entries }));
      return path;
    };
    const variants: Variant[] = [
      {
        label: "federator, HTTP engines",
        registry: write(
          "http.json",
          engines.map((engine, index) => ({ id: `e${index}`, transport: "http", url: engine.url })),
        ),
      },
      {
        label: "federator, stdio engines",
        registry: write(
          "stdio.json",
          DELAYS_MS.map((_, index) => ({
            id: `e${index}`,
            transport: "stdio",
            command: [process.execPath, ENGINE, "--stdio", ...engineArgs(index)],
          })),
        ),
      },
    ];
    const samples = await alternate(mode.rounds, variants, async (variant) => {
      const federator = await startFederator(variant.registry);
      try {
        const config: LatencyLoadConfig = {
          direct: retrieveTarget(engines.at(-1)!.url),
          federated: retrieveTarget(federator.url),
          ...mode.federation,
          timeoutMs: 30_000 + mode.federation.requests * 100,
        };
        const result = await runJsonChild<LatencyLoadResult>({
          script: loadScript("latency-load"),
          args: [JSON.stringify(config)],
          timeoutMs: config.timeoutMs + 10_000,
        });
        const metrics: Record<string, number> = { ...result };
        return metrics;
      } finally {
        await federator.stop();
      }
    });
    const { rows, metric } = medianTable(variants, samples);
    const targets: Target[] = variants.map((variant) => ({
      name: `${variant.label}: added latency p50 over the slowest of 3 engines`,
      measured: metric(variant.label, "addedP50Ms"),
      threshold: 1,
      kind: "max",
      unit: " ms",
    }));
    return {
      id: "9",
      title: `federation: ${mode.federation.requests} retrieves, engines answering after ${DELAYS_MS.join("/")} ms, median of ${mode.rounds} rounds`,
      rows,
      targets,
      samples: Object.fromEntries(samples),
      notes: [
        "direct = the slowest engine alone over HTTP; federated = the federator over HTTP fanning out to all three, fusing 30 hits by RRF",
        "one keep-alive connection each, requests alternating one at a time; the CPU of 5 processes shares the machine's cores",
      ],
    };
  } finally {
    await Promise.all(engines.map((engine) => engine.stop()));
    rmSync(folder, { recursive: true, force: true });
  }
}
