/**
 * Scenario 5: validation cost. Per call, the generated standalone validators against ajv compiling
 * the same schemas at run time; and the share of a request's server CPU spent validating (params
 * and result per request, over ours' CPU per request from scenario 1, or a fresh stdio run).
 */
import type { StdioLoadConfig, StdioLoadResult } from "../load/stdio-load.js";
import type { ValidationMicroResult } from "../load/validation-micro.js";
import type { Mode } from "../modes.js";
import { OURS, STDIO_PEERS } from "../peers.js";
import { runJsonChild } from "../processes.js";
import type { ScenarioReport, Target } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

async function oursCpuMicrosPerRequest(mode: Mode, earlier: readonly ScenarioReport[]): Promise<number> {
  const measured = earlier.find((report) => report.id === "1")?.rows.find((row) => row.label === OURS);
  if (measured?.metrics.serverCpuMicrosPerRequest !== undefined) return measured.metrics.serverCpuMicrosPerRequest;
  const ours = STDIO_PEERS.find((peer) => peer.label === OURS);
  if (!ours) throw new Error("ours is not built yet: no request CPU time to compare validation with");
  const config: StdioLoadConfig = { server: ours.server, dialect: ours.dialect, ...mode.stdio, timeoutMs: 60_000 };
  const result = await runJsonChild<StdioLoadResult>({ script: loadScript("stdio-load"), args: [JSON.stringify(config)], timeoutMs: 70_000 });
  return result.serverCpuMicrosPerRequest;
}

export async function validationScenario(mode: Mode, earlier: readonly ScenarioReport[]): Promise<ScenarioReport> {
  const micro = await runJsonChild<ValidationMicroResult>({
    script: loadScript("validation-micro"),
    args: [String(mode.validation.calls)],
    timeoutMs: 120_000,
  });
  const requestMicros = await oursCpuMicrosPerRequest(mode, earlier);
  const validationMicros = (micro.standaloneParamsNs + micro.standaloneResultNs) / 1000;
  const targets: Target[] = [
    {
      name: "validation share of ours' server CPU per stdio request (params + result)",
      measured: 100 * ratio(validationMicros, requestMicros),
      threshold: 15,
      kind: "max",
      unit: "%",
    },
  ];
  return {
    id: "5",
    title: `validation cost: retrieve params and 3-hit result, median of 5 x ${mode.validation.calls} calls`,
    rows: [
      { label: "generated standalone", metrics: { paramsNsPerCall: micro.standaloneParamsNs, resultNsPerCall: micro.standaloneResultNs, compileMs: 0 } },
      {
        label: "ajv compiled at run time",
        metrics: { paramsNsPerCall: micro.runtimeParamsNs, resultNsPerCall: micro.runtimeResultNs, compileMs: micro.runtimeCompileMs },
      },
    ],
    targets,
    notes: [
      `ours' server CPU per request: ${requestMicros.toFixed(2)} us, of which validation ${validationMicros.toFixed(2)} us`,
      "compileMs: loading the schema folder and compiling both schemas with ajv, paid at every start-up without standalone code",
    ],
  };
}
