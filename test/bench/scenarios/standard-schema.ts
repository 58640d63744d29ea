/**
 * Scenario 15: what Standard Schema costs on a generated validator. `~standard.validate` on valid
 * retrieve params against the plain validator call, per call (target at most 1.1x); on invalid
 * params, the cost of building the issues, reported.
 */
import type { StandardSchemaMicroResult } from "../load/standard-schema-micro.js";
import type { Mode } from "../modes.js";
import { runJsonChild } from "../processes.js";
import { ratioAtMost, type ScenarioReport } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

/** Retrieve params validate in tens of ns: ten times scenario 5's calls keep each timing long enough to compare. */
const CALLS_PER_VALIDATION_CALL = 10;

export async function standardSchemaScenario(mode: Mode): Promise<ScenarioReport> {
  const micro = await runJsonChild<StandardSchemaMicroResult>({
    script: loadScript("standard-schema-micro"),
    args: [String(CALLS_PER_VALIDATION_CALL * mode.validation.calls)],
    timeoutMs: 120_000,
  });
  return {
    id: "15",
    title: `Standard Schema validate on retrieve params, median of 6 x ${CALLS_PER_VALIDATION_CALL * mode.validation.calls} calls`,
    rows: [
      {
        label: "plain validator",
        metrics: { validNsPerCall: micro.plainValidNs, invalidNsPerCall: micro.plainInvalidNs },
      },
      {
        label: "~standard.validate",
        metrics: { validNsPerCall: micro.standardValidNs, invalidNsPerCall: micro.standardInvalidNs },
      },
    ],
    targets: [
      ratioAtMost(
        "~standard.validate / plain validator, valid params, per call",
        ratio(micro.standardValidNs, micro.plainValidNs),
        1.1,
      ),
    ],
    notes: [
      `invalid params (k a string): building the issues costs ${(micro.standardInvalidNs - micro.plainInvalidNs).toFixed(0)} ns per call over the plain validator's ${micro.plainInvalidNs.toFixed(0)} ns (${ratio(micro.standardInvalidNs, micro.plainInvalidNs).toFixed(2)}x)`,
    ],
  };
}
