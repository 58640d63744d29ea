/**
 * Scenario 4: start-up, from spawning a stdio server to reading its initialize response; and
 * proof that ours compiles no schema at start-up, both dynamically (ajv's compile entry counted
 * in a server run with a preload) and statically (the generated validators module imports no ajv);
 * and that a stdio server loads neither node:http nor node:child_process (milliseconds each).
 */
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { alternate, medianTable } from "../alternate.js";
import { DIALECTS } from "../load/dialects.js";
import { StdioConnection } from "../load/stdio-connection.js";
import type { Mode } from "../modes.js";
import { FLOOR, OURS, STDIO_PEERS, missingOursNote, serverScript, type StdioPeer } from "../peers.js";
import type { ScenarioReport, Target } from "../report.js";
import { ratio } from "../stats.js";
import { COMPILE_COUNT_PREFIX, UNUSED_BUILTINS_PREFIX } from "../servers/probe.js";

async function timeToInitialize(peer: StdioPeer, nodeFlags: string[] = []): Promise<{ ms: number; stderr: string }> {
  const started = performance.now();
  const connection = new StdioConnection({ ...peer.server, nodeFlags }, DIALECTS[peer.dialect]);
  try {
    await connection.handshake(15_000);
    const ms = performance.now() - started;
    const stderrEnded = connection.child.stderr?.readableEnded
      ? Promise.resolve()
      : once(connection.child.stderr!, "end");
    await connection.close();
    await stderrEnded;
    return { ms, stderr: connection.stderr() };
  } finally {
    connection.child.kill("SIGKILL");
  }
}

/** What follows `prefix` on the stderr line starting with it. */
function stderrLine(stderr: string, prefix: string): string | undefined {
  return stderr
    .split("\n")
    .find((text) => text.startsWith(prefix))
    ?.slice(prefix.length);
}

/** Import specifiers of ajv in the compiled generated validators (their helpers are inlined: none expected). */
function ajvImportsOfValidators(): string[] | undefined {
  const path = fileURLToPath(new URL("../../../generated/validators.js", import.meta.url));
  if (!existsSync(path)) return undefined;
  const source = readFileSync(path, "utf8");
  const specifiers = [...source.matchAll(/(?:from\s*|import\s*\(?\s*|require\s*\(\s*)["']([^"']+)["']/g)].map(
    (match) => match[1] ?? "",
  );
  return specifiers.filter((specifier) => specifier.startsWith("ajv"));
}

export async function startupScenario(mode: Mode): Promise<ScenarioReport> {
  const samples = await alternate(mode.startup.rounds, STDIO_PEERS, async (peer) => ({
    msToInitializeResponse: (await timeToInitialize(peer)).ms,
  }));
  const { rows, metric } = medianTable(STDIO_PEERS, samples);
  const startMs = (label: string): number => metric(label, "msToInitializeResponse");
  const targets: Target[] = [
    {
      name: "start-up, ours / stdio floor",
      measured: ratio(startMs(OURS), startMs(FLOOR)),
      threshold: 1.5,
      kind: "max",
      unit: "x",
    },
  ];
  const notes = [...missingOursNote()];
  const ours = STDIO_PEERS.find((peer) => peer.label === OURS);
  if (ours) {
    const counted = await timeToInitialize(ours, ["--import", serverScript("count-ajv-compiles")]);
    const line = stderrLine(counted.stderr, COMPILE_COUNT_PREFIX);
    const compiles = line === undefined ? Number.NaN : Number(line);
    targets.push({
      name: "ajv schema compilations in ours (start, initialize, exit)",
      measured: compiles,
      threshold: 0,
      kind: "max",
      unit: "",
    });
    const reported = await timeToInitialize(ours, ["--import", serverScript("report-builtins")]);
    const unused = stderrLine(reported.stderr, UNUSED_BUILTINS_PREFIX)?.split(",").filter(Boolean);
    targets.push({
      name: "node:http and node:child_process loaded by ours over stdio",
      measured: unused?.length ?? Number.NaN,
      threshold: 0,
      kind: "max",
      unit: "",
    });
    if (unused && unused.length > 0) notes.push(`ours over stdio loaded node:${unused.join(", node:")}`);
    const beyond = ajvImportsOfValidators();
    targets.push({
      name: "ajv imports in the compiled generated/validators.js",
      measured: beyond?.length ?? Number.NaN,
      threshold: 0,
      kind: "max",
      unit: "",
    });
    if (beyond && beyond.length > 0) notes.push(`generated/validators.js imports ${beyond.join(", ")}`);
  }
  return {
    id: "4",
    title: `start-up: spawn to initialize response, median of ${mode.startup.rounds} rounds`,
    rows,
    targets,
    samples: Object.fromEntries(samples),
    notes,
  };
}
