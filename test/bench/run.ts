/**
 * `npm run bench [-- --quick | --tiny] [--only 1,3] [--out file]`: runs the scenarios of issue 6,
 * ours beside the floors and peers, prints a table per scenario with PASS/MISS per target, and
 * writes every figure to a JSON file (bench-results.json at the repo root by default).
 */
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { MODES, type Mode } from "./modes.js";
import { passes, renderScenario, saveRun, type RunRecord, type ScenarioReport } from "./report.js";
import { bundleScenario } from "./scenarios/bundle.js";
import { federationScenario } from "./scenarios/federation.js";
import { generatorScenario } from "./scenarios/generator.js";
import { httpScenario } from "./scenarios/http.js";
import { installScenario } from "./scenarios/install.js";
import { mcpScenario } from "./scenarios/mcp.js";
import { oramaScenario } from "./scenarios/orama.js";
import { resumableScenario } from "./scenarios/resumable.js";
import { memoryScenario } from "./scenarios/memory.js";
import { mockCallScenario } from "./scenarios/mock-call.js";
import { scaleOutScenario } from "./scenarios/scale-out.js";
import { sseScenario } from "./scenarios/sse.js";
import { standardSchemaScenario } from "./scenarios/standard-schema.js";
import { startupScenario } from "./scenarios/startup.js";
import { stdioScenario } from "./scenarios/stdio.js";
import { validationScenario } from "./scenarios/validation.js";
import { missingBinaries } from "../scale/processes.js";

type Scenario = (mode: Mode, earlier: readonly ScenarioReport[]) => ScenarioReport | Promise<ScenarioReport>;

/**
 * Each scenario, with what says why it cannot run on this machine (one line) when a program it
 * starts is not installed; where CI requires the program, that throws instead.
 */
const SCENARIOS: ReadonlyArray<{ id: string; run: Scenario; unavailable?: (what: string) => string | undefined }> = [
  { id: "1", run: stdioScenario },
  { id: "2", run: httpScenario },
  { id: "3", run: sseScenario },
  { id: "4", run: startupScenario },
  { id: "5", run: validationScenario },
  { id: "6", run: generatorScenario },
  { id: "7", run: memoryScenario },
  { id: "8", run: installScenario },
  { id: "9", run: federationScenario },
  { id: "10", run: bundleScenario },
  { id: "12", run: mcpScenario },
  { id: "13", run: scaleOutScenario, unavailable: missingBinaries },
  { id: "14", run: mockCallScenario },
  { id: "15", run: standardSchemaScenario },
  { id: "16", run: oramaScenario },
  { id: "17", run: resumableScenario, unavailable: missingBinaries },
];

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const mode = process.argv.includes("--tiny") ? MODES.tiny : process.argv.includes("--quick") ? MODES.quick : MODES.full;
const only = option("--only")?.split(",");
const out = option("--out") ?? fileURLToPath(new URL("../../../bench-results.json", import.meta.url));

const record: RunRecord = {
  mode: mode.name,
  startedAt: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  scenarios: [],
  failures: [],
  skipped: [],
};
process.stdout.write(`rcp-gen bench, ${mode.name} mode, node ${process.version}, ${record.cpus} CPUs\n`);
for (const scenario of SCENARIOS) {
  if (only && !only.includes(scenario.id)) continue;
  const started = Date.now();
  try {
    const reason = scenario.unavailable?.(`scenario ${scenario.id}`);
    if (reason !== undefined) {
      record.skipped.push({ id: scenario.id, reason });
      process.stdout.write(`\n## ${scenario.id}. ${reason}\n`);
    } else {
      const report = await scenario.run(mode, record.scenarios);
      record.scenarios.push(report);
      process.stdout.write(renderScenario(report) + `\n  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    }
  } catch (error) {
    const message = (error as Error).message;
    record.failures.push({ id: scenario.id, error: message });
    process.stdout.write(`\n## ${scenario.id}. FAILED: ${message}\n`);
  }
  saveRun(out, record);
}
const targets = record.scenarios.flatMap((scenario) => scenario.targets);
const missed = targets.filter((target) => !passes(target)).length;
process.stdout.write(
  `\n${targets.length - missed} PASS, ${missed} MISS, ${record.failures.length} scenario(s) failed, ${record.skipped.length} skipped; results in ${out}\n`,
);
process.exit(record.failures.length > 0 ? 1 : 0);
