/**
 * Scenario 6: the generator (issue 27's targets), each figure from the built CLI in a child
 * process, as a user runs it, beside a floor (load/generator-floor.ts: the same libraries called
 * once each, in one process):
 *   - cold: `rcp-gen` on the RCP/1 schema, a fresh process each time, alternating with the
 *     floor's cold run (medians of the rounds);
 *   - watch: `rcp-gen --watch`, from writing a one-word edit of one schema file to the line
 *     saying the output was written (median of the edits), against the floor's warm rerun;
 *   - scale: `rcp-gen` on copies of the RCP/1 schema grown to a number of methods with
 *     synthetic vendor methods, each with shapes of its own; the marginal cost per method
 *     between the sizes says whether the cost grows linearly.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { GeneratorFloorResult } from "../load/generator-floor.js";
import type { Mode } from "../modes.js";
import type { ScenarioReport, Target } from "../report.js";
import { median } from "../stats.js";
import { loadScript } from "./scripts.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const cli = join(repoRoot, "generator", "dist", "cli", "main.js");
const schemaDir = join(repoRoot, "schema");
/** The size issue 27 sets a time for, and the most seconds that size may take. */
const SCALE_TARGET = { methods: 300, seconds: 30 };
/** Most the generator may take over the floor: a cold run, and a --watch rerun over the floor's warm rerun. */
const COLD_OVER_FLOOR = 2.5;
const WATCH_OVER_FLOOR = 1.5;
/** Most the marginal cost per method from the middle to the largest size may be over that from the smallest to the middle. */
const MARGINAL_GROWTH = 1.5;

/**
 * A copy of schema/ with `extra` more methods x-bench/m0001... in methods/; returns the folder.
 * Each gives its params, result and partial a member of its own, so no two shapes are alike and
 * every one is compiled: a folder of that many different methods of retrieve's size.
 */
function syntheticFolder(workDir: string, extra: number): string {
  const folder = join(workDir, `schema-${extra}`);
  cpSync(schemaDir, folder, { recursive: true });
  const retrieve = JSON.parse(readFileSync(join(schemaDir, "methods", "retrieve.json"), "utf8")) as Record<
    string,
    unknown
  >;
  for (let index = 1; index <= extra; index += 1) {
    const name = `m${String(index).padStart(4, "0")}`;
    const file = {
      ...retrieve,
      $defs: withOwnMember(retrieve["$defs"] as Record<string, object>, name),
      title: `x-bench/${name}`,
      description: `Synthetic bench method ${index}: retrieve's shapes under a vendor wire name.`,
      "x-rcp": {
        kind: "method",
        method: `x-bench/${name}`,
        capability: "x-bench",
        beforeInitialize: false,
        streaming: true,
      },
    };
    writeFileSync(join(folder, "methods", `x-bench-${name}.json`), JSON.stringify(file, null, 2));
  }
  return folder;
}

/** Each of params, result and partial with a member `bench` that must be `name`. */
function withOwnMember(definitions: Record<string, object>, name: string): Record<string, object> {
  const own = (shape: object | undefined) => {
    const { properties = {} } = (shape ?? {}) as { properties?: object };
    return { ...shape, properties: { ...properties, bench: { const: name } } };
  };
  return {
    ...definitions,
    params: own(definitions["params"]),
    result: own(definitions["result"]),
    partial: own(definitions["partial"]),
  };
}

/** Seconds of one cold run, or the reason it failed. */
function timeGeneration(folder: string, out: string): number | Error {
  const started = performance.now();
  // From a folder outside the repository: its package.json settings would add the docs targets.
  const run = spawnSync(process.execPath, [cli, "--schema", folder, "--out", out, "--quiet"], {
    cwd: tmpdir(),
    encoding: "utf8",
    timeout: 400_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0)
    return new Error(`${(run.stderr || run.error?.message || `signal ${run.signal}`).trim().slice(0, 200)}`);
  return seconds;
}

/** Seconds of the floor's cold run and of its warm rerun, from a fresh process. */
function timeFloor(folder: string): { cold: number; warm: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, [loadScript("generator-floor"), folder], {
    cwd: tmpdir(),
    encoding: "utf8",
    timeout: 400_000,
  });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0)
    throw new Error(`generator floor: ${(run.stderr || `signal ${run.signal}`).trim().slice(0, 200)}`);
  const { warmMs } = JSON.parse(run.stdout) as GeneratorFloorResult;
  return { cold: seconds - warmMs / 1000, warm: warmMs / 1000 };
}

function methodCount(folder: string): number {
  return readdirSync(join(folder, "methods")).filter((name) => name.endsWith(".json")).length;
}

/**
 * Milliseconds from writing a one-word edit of types/hit.json to `rcp-gen --watch` printing
 * that it wrote the output, for each of `edits` edits (after one unmeasured edit, repeated until
 * seen, since Node sets up a recursive watch asynchronously).
 */
async function watchLatencies(workDir: string, edits: number): Promise<number[]> {
  const folder = join(workDir, "schema-watched");
  const out = join(workDir, "out-watched");
  cpSync(schemaDir, folder, { recursive: true });
  const hitPath = join(folder, "types", "hit.json");
  const hit = JSON.parse(readFileSync(hitPath, "utf8")) as { description: string };
  const child = spawn(process.execPath, [cli, "--schema", folder, "--out", out, "--watch"], {
    cwd: tmpdir(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const written = () => stdout.match(/rcp-gen: wrote /g)?.length ?? 0;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const waitFor = async (done: () => boolean, what: string) => {
    const deadline = Date.now() + 60_000;
    while (!done()) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`rcp-gen --watch: no ${what}: ${stderr}`);
      await sleep(2);
    }
  };
  /** Until a second passes without a run: a write during a run's burst would be folded into the next one. */
  const settle = async () => {
    for (let count = written(); ; count = written()) {
      await sleep(1_000);
      if (written() === count) return;
    }
  };
  const edit = (word: string) =>
    writeFileSync(hitPath, JSON.stringify({ ...hit, description: hit.description.replace(/^\S+/, word) }, null, 2));
  const shows = (word: string) => {
    try {
      return readFileSync(join(out, "types.ts"), "utf8").includes(word);
    } catch {
      return false; // between the two renames that swap the output folder in
    }
  };
  try {
    await waitFor(() => /watching/.test(stdout) && written() === 1, "first run");
    const repeat = setInterval(() => edit("Warm"), 300);
    edit("Warm");
    await waitFor(() => written() > 1, "run after the first edit").finally(() => clearInterval(repeat));
    const latencies: number[] = [];
    for (let index = 0; index < edits; index += 1) {
      await settle();
      const before = written();
      const started = performance.now();
      edit(`Edit${index}`);
      await waitFor(() => written() > before && shows(`Edit${index}`), `run after edit ${index}`);
      latencies.push(performance.now() - started);
    }
    return latencies;
  } finally {
    child.kill();
  }
}

export async function generatorScenario(mode: Mode): Promise<ScenarioReport> {
  if (!existsSync(cli)) throw new Error(`${cli} not built yet`);
  const settings = mode.generator;
  const workDir = mkdtempSync(join(tmpdir(), "rcp-bench-gen-"));
  const notes: string[] = [];
  try {
    // Discarded: the first run after a while pays for cold disk caches, not for the generator.
    if (settings.warmUp) timeGeneration(schemaDir, join(workDir, "out-warm-up"));
    const cold: number[] = [];
    const floorCold: number[] = [];
    const floorWarm: number[] = [];
    for (let round = 0; round < settings.coldRounds; round += 1) {
      const seconds = timeGeneration(schemaDir, join(workDir, "out-cold"));
      if (seconds instanceof Error) throw seconds;
      cold.push(seconds);
      const floor = timeFloor(schemaDir);
      floorCold.push(floor.cold);
      floorWarm.push(floor.warm);
    }
    const watch = (await watchLatencies(workDir, settings.watchEdits)).map((ms) => ms / 1000);
    const rcp1Methods = methodCount(schemaDir);
    const rows: ScenarioReport["rows"] = [
      {
        label: "RCP/1 cold",
        metrics: {
          methods: rcp1Methods,
          seconds: median(cold),
          floorSeconds: median(floorCold),
          overFloor: median(cold) / median(floorCold),
        },
      },
      {
        label: "watch, one-file edit",
        metrics: {
          methods: rcp1Methods,
          seconds: median(watch),
          floorSeconds: median(floorWarm),
          overFloor: median(watch) / median(floorWarm),
        },
      },
    ];
    const targets: Target[] = [
      {
        name: "RCP/1 cold rcp-gen over the floor's cold run, medians",
        measured: median(cold) / median(floorCold),
        threshold: COLD_OVER_FLOOR,
        kind: "max",
        unit: "x",
      },
      {
        name: "--watch, edit to output written, over the floor's warm rerun, medians",
        measured: median(watch) / median(floorWarm),
        threshold: WATCH_OVER_FLOOR,
        kind: "max",
        unit: "x",
      },
    ];
    // RCP/1 itself is the smallest size: its cold runs' median.
    const scale: { methods: number; seconds: number }[] = [{ methods: rcp1Methods, seconds: median(cold) }];
    for (const total of settings.scaleMethods) {
      const folder = syntheticFolder(workDir, Math.max(0, total - rcp1Methods));
      const methods = methodCount(folder);
      const seconds = timeGeneration(folder, join(workDir, `out-${methods}`));
      if (seconds instanceof Error) notes.push(`${methods} methods failed: ${seconds.message}`);
      const measured = seconds instanceof Error ? Number.NaN : seconds;
      scale.push({ methods, seconds: measured });
      rows.push({ label: `${methods} distinct methods`, metrics: { methods, seconds: measured } });
      rmSync(folder, { recursive: true, force: true });
    }
    const largest = scale.at(-1);
    if (largest && largest.methods >= SCALE_TARGET.methods)
      targets.push({
        name: `${largest.methods} distinct methods, one run`,
        measured: largest.seconds,
        threshold: SCALE_TARGET.seconds,
        kind: "max",
        unit: " s",
      });
    const [small, middle, large] = scale;
    if (small && middle && large) {
      const perMethod = (from: typeof small, to: typeof small) =>
        (to.seconds - from.seconds) / (to.methods - from.methods);
      targets.push({
        name: `marginal cost per method, ${middle.methods}->${large.methods} over ${small.methods}->${middle.methods}`,
        measured: perMethod(middle, large) / perMethod(small, middle),
        threshold: MARGINAL_GROWTH,
        kind: "max",
        unit: "x",
      });
    }
    notes.push(
      `cold: ${cold.length} runs of ours alternating with the floor's; watch: ${watch.length} edits of types/hit.json, each from the write to "wrote" on stdout`,
      "every run is a child process: seconds include node start-up and loading the generator (the floor's cold run too: its process time less its warm rerun)",
    );
    return {
      id: "6",
      title: "generator: cold run and --watch latency against a floor, and growth with the number of methods",
      rows,
      targets,
      notes,
      samples: {
        cold: cold.map((seconds, round) => ({
          seconds,
          floorSeconds: floorCold[round]!,
          floorWarmSeconds: floorWarm[round]!,
        })),
        watch: watch.map((seconds) => ({ seconds })),
      },
    };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
