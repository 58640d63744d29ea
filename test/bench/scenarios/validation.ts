/**
 * Scenario 5: validation cost. Per call, the generated standalone validators against ajv compiling
 * the same schemas at run time; and the share of a request's server CPU spent validating (params
 * and result per request, over ours' CPU per request from scenario 1, or a fresh stdio run).
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selfTimeShare } from "../cpu-profile.js";
import type { StdioLoadConfig, StdioLoadResult } from "../load/stdio-load.js";
import type { ValidationMicroResult } from "../load/validation-micro.js";
import type { Mode } from "../modes.js";
import { OURS, STDIO_PEERS } from "../peers.js";
import { runJsonChild } from "../processes.js";
import type { ScenarioReport, Target } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

function oursStdioPeer() {
  const ours = STDIO_PEERS.find((peer) => peer.label === OURS);
  if (!ours) throw new Error("ours is not built yet: no request CPU time to compare validation with");
  return ours;
}

function runOursStdio(mode: Mode, nodeFlags: string[]): Promise<StdioLoadResult> {
  const ours = oursStdioPeer();
  const config: StdioLoadConfig = {
    server: { ...ours.server, nodeFlags },
    dialect: ours.dialect,
    ...mode.stdio,
    timeoutMs: 60_000,
  };
  return runJsonChild<StdioLoadResult>({
    script: loadScript("stdio-load"),
    args: [JSON.stringify(config)],
    timeoutMs: 70_000,
  });
}

async function oursCpuMicrosPerRequest(mode: Mode, earlier: readonly ScenarioReport[]): Promise<number> {
  const measured = earlier.find((report) => report.id === "1")?.rows.find((row) => row.label === OURS);
  return measured?.metrics.serverCpuMicrosPerRequest ?? (await runOursStdio(mode, [])).serverCpuMicrosPerRequest;
}

/** Ours under the stdio workload with V8's sampling profiler: the self-time share of validator code. */
async function profiledValidationShare(mode: Mode): Promise<number> {
  const profileDir = mkdtempSync(join(tmpdir(), "rcp-bench-prof-"));
  try {
    await runOursStdio(mode, ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]);
    const profile = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
    if (!profile) throw new Error("the profiled server wrote no .cpuprofile");
    return selfTimeShare(
      join(profileDir, profile),
      (url) => url.endsWith("/generated/validators.js") || url.includes("/ajv/dist/runtime/"),
    );
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
}

export async function validationScenario(mode: Mode, earlier: readonly ScenarioReport[]): Promise<ScenarioReport> {
  const micro = await runJsonChild<ValidationMicroResult>({
    script: loadScript("validation-micro"),
    args: [String(mode.validation.calls)],
    timeoutMs: 120_000,
  });
  const requestMicros = await oursCpuMicrosPerRequest(mode, earlier);
  const validationMicros = (micro.standaloneParamsNs + micro.standaloneResultNs) / 1000;
  const profiledShare = await profiledValidationShare(mode);
  const targets: Target[] = [
    {
      name: "validation share of ours' server CPU per stdio request (params + result)",
      measured: 100 * ratio(validationMicros, requestMicros),
      threshold: 15,
      kind: "max",
      unit: "%",
    },
    {
      name: "validation share of ours' busy server CPU, from a CPU profile of the stdio workload",
      measured: 100 * profiledShare,
      threshold: 15,
      kind: "max",
      unit: "%",
    },
  ];
  return {
    id: "5",
    title: `validation cost: retrieve params and 3-hit result, median of 5 x ${mode.validation.calls} calls`,
    rows: [
      {
        label: "generated standalone",
        metrics: { paramsNsPerCall: micro.standaloneParamsNs, resultNsPerCall: micro.standaloneResultNs, compileMs: 0 },
      },
      {
        label: "ajv compiled at run time",
        metrics: {
          paramsNsPerCall: micro.runtimeParamsNs,
          resultNsPerCall: micro.runtimeResultNs,
          compileMs: micro.runtimeCompileMs,
        },
      },
      {
        label: "ajv at run time, inlineRefs: false",
        metrics: {
          paramsNsPerCall: micro.sameOptionsParamsNs,
          resultNsPerCall: micro.sameOptionsResultNs,
          compileMs: micro.sameOptionsCompileMs,
        },
      },
    ],
    targets,
    notes: [
      `ours' server CPU per request: ${requestMicros.toFixed(2)} us, of which validation ${validationMicros.toFixed(2)} us`,
      "the generator emits with inlineRefs: false (every $ref a function call); the third row compiles the same way at run time",
      "compileMs: loading the schema folder and compiling both schemas with ajv (third row: compiling alone), paid at every start-up without standalone code",
      "profiled share: self time in generated/validators.js and ajv/dist/runtime/* over all non-idle samples (start-up included)",
    ],
  };
}
