/**
 * Scenario 6: generator scaling. `rcp-gen` (the built CLI) on the RCP/1 schema and on copies of it
 * with 50, 100, 200 extra synthetic vendor methods (each a clone of retrieve's shapes under its own
 * wire name), to show time per method stays about flat as the folder grows.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { Mode } from "../modes.js";
import type { ScenarioReport } from "../report.js";
import { median } from "../stats.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const cli = join(repoRoot, "generator", "dist", "cli", "main.js");
const schemaDir = join(repoRoot, "schema");

/** A copy of schema/ with `extra` more methods x-bench/m001... in methods/; returns the folder. */
function syntheticFolder(workDir: string, extra: number): string {
  const folder = join(workDir, `schema-${extra}`);
  cpSync(schemaDir, folder, { recursive: true });
  const retrieve = JSON.parse(readFileSync(join(schemaDir, "methods", "retrieve.json"), "utf8")) as Record<string, unknown>;
  for (let index = 1; index <= extra; index += 1) {
    const method = `x-bench/m${String(index).padStart(3, "0")}`;
    const file = {
      ...retrieve,
      title: method,
      description: `Synthetic bench method ${index}: retrieve's shapes under a vendor wire name.`,
      "x-rcp": { kind: "method", method, capability: "x-bench", beforeInitialize: false, streaming: true },
    };
    writeFileSync(join(folder, "methods", `x-bench-m${String(index).padStart(3, "0")}.json`), JSON.stringify(file, null, 2));
  }
  return folder;
}

function timeGeneration(folder: string, out: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, "--schema", folder, "--out", out, "--quiet"], { encoding: "utf8", timeout: 300_000 });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`rcp-gen failed on ${folder}: ${run.stderr || run.error?.message}`);
  return seconds;
}

function methodCount(folder: string): number {
  return readdirSync(join(folder, "methods")).filter((name) => name.endsWith(".json")).length;
}

export async function generatorScenario(mode: Mode): Promise<ScenarioReport> {
  if (!existsSync(cli)) throw new Error(`${cli} not built yet`);
  const workDir = mkdtempSync(join(tmpdir(), "rcp-bench-gen-"));
  try {
    const sizes = [0, ...mode.generator.sizes];
    const folders = sizes.map((extra) => (extra === 0 ? schemaDir : syntheticFolder(workDir, extra)));
    const seconds = sizes.map((): number[] => []);
    // Discarded: the first run after a while pays for cold disk caches, not for the generator.
    if (mode.generator.warmUp) timeGeneration(schemaDir, join(workDir, "out-warm-up"));
    for (let round = 0; round < mode.generator.rounds; round += 1) {
      folders.forEach((folder, index) => seconds[index]?.push(timeGeneration(folder, join(workDir, `out-${index}`))));
    }
    const rows = folders.map((folder, index) => {
      const methods = methodCount(folder);
      const wall = median(seconds[index] ?? []);
      return {
        label: index === 0 ? "RCP/1 schema" : `RCP/1 + ${sizes[index]} synthetic`,
        metrics: { methods, seconds: wall, msPerMethod: (1000 * wall) / methods },
      };
    });
    const marginal = rows.slice(1).map((row, index) => {
      const previous = rows[index]!;
      const perAdded = (1000 * (row.metrics.seconds - previous.metrics.seconds)) / (row.metrics.methods - previous.metrics.methods);
      return `${previous.metrics.methods} -> ${row.metrics.methods} methods: ${perAdded.toFixed(1)} ms per added method`;
    });
    return {
      id: "6",
      title: `generator scaling: cold rcp-gen runs, median of ${mode.generator.rounds}`,
      rows,
      targets: [],
      notes: [
        ...marginal,
        "about linear when the marginal cost per added method stays about the same from step to step",
        "seconds include node start-up and the fixed cost of loading ts-morph, prettier and json-schema-to-typescript",
      ],
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
