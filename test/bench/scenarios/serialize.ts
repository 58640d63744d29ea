/**
 * Scenario 11: serializing a result. The runtime's serialize() against a serializer compiled
 * from the result's schema (test/serializers/compiler), per call, for the rich and the small
 * retrieve result. It says whether generated servers should carry compiled serializers: only
 * where compiled is cheaper than serialize() on the runtime running it (Node, Bun and Deno here).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SerializeMicroResult } from "../load/serialize-micro.js";
import type { Mode } from "../modes.js";
import { RESULT_VARIANT_ENV, type ResultVariant } from "../fixture.js";
import { runJsonChild } from "../processes.js";
import type { ScenarioReport } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

const VARIANTS: readonly ResultVariant[] = ["rich", "small"];

/** A fifth of scenario 5's calls: each sample here also builds the result, several microseconds. */
function callsPerSample(mode: Mode): number {
  return Math.ceil(mode.validation.calls / 5);
}

/**
 * Node, and the other runtimes generated servers run on (issue 13) where npm installed them: a
 * compiled serializer could pay off on one engine and not on another (V8, JavaScriptCore).
 */
function runtimes(): { name: string; runtime?: readonly [string, ...string[]] }[] {
  const bin = (name: string) => fileURLToPath(new URL(`../../../../node_modules/.bin/${name}`, import.meta.url));
  return [
    { name: `node ${process.version}` },
    ...(existsSync(bin("bun")) ? [{ name: "bun", runtime: [bin("bun")] as const }] : []),
    ...(existsSync(bin("deno")) ? [{ name: "deno", runtime: [bin("deno"), "run", "-A"] as const }] : []),
  ];
}

export async function serializeScenario(mode: Mode): Promise<ScenarioReport> {
  const rows: ScenarioReport["rows"] = [];
  for (const { name, runtime } of runtimes())
    for (const variant of VARIANTS) {
      const metrics = await runJsonChild<SerializeMicroResult>({
        script: loadScript("serialize-micro"),
        args: [String(callsPerSample(mode))],
        env: { [RESULT_VARIANT_ENV]: variant },
        timeoutMs: 120_000,
        ...(runtime ? { runtime } : {}),
      });
      rows.push({ label: `retrieve result, ${variant}, ${name}`, metrics });
    }
  return {
    id: "11",
    title: `serializing a retrieve result: ns per call, median of 5 x ${callsPerSample(mode)} calls (building the value subtracted)`,
    rows,
    targets: [],
    notes: [
      ...rows.map(
        (row) =>
          `${row.label}: compiled / serialize() = ${ratio(row.metrics.compiledNs ?? Number.NaN, row.metrics.serializeNs ?? Number.NaN).toFixed(2)}x`,
      ),
      "compiled: a serializer generated from the result's JSON Schema (string concatenation per known member, generic for unknown ones); serialize(): JSON.stringify with the §4.6 non-finite rules",
    ],
  };
}
