/** The shape of a scenario's outcome, and how the run prints and saves it. */
import { writeFileSync } from "node:fs";
import { round } from "./stats.js";

export interface Target {
  name: string;
  measured: number;
  threshold: number;
  /** `min`: measured must be at least threshold; `max`: at most. */
  kind: "min" | "max";
  unit: string;
}

/** A ratio that must be at least `threshold`. */
export function ratioAtLeast(name: string, measured: number, threshold: number): Target {
  return { name, measured, threshold, kind: "min", unit: "x" };
}

/** A ratio that must be at most `threshold` (a cost, e.g. CPU per request against a floor's). */
export function ratioAtMost(name: string, measured: number, threshold: number): Target {
  return { name, measured, threshold, kind: "max", unit: "x" };
}

export interface ScenarioReport {
  id: string;
  title: string;
  /** One row per peer (or per size): metric name -> median value. */
  rows: Array<{ label: string; metrics: Record<string, number> }>;
  targets: Target[];
  notes: string[];
  /** Every round's figures per contender, in run order (the rows are their medians). */
  samples?: Record<string, ReadonlyArray<Record<string, number>>>;
}

/** A target whose figure could not be measured (NaN) is a MISS, never a PASS. */
export function passes(target: Target): boolean {
  if (!Number.isFinite(target.measured)) return false;
  return target.kind === "min" ? target.measured >= target.threshold : target.measured <= target.threshold;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  return String(round(value, Math.abs(value) >= 10 ? 1 : 3));
}

function table(header: string[], lines: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...lines.map((line) => (line[column] ?? "").length)),
  );
  const render = (cells: string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  return [render(header), render(widths.map((width) => "-".repeat(width))), ...lines.map(render)].join("\n");
}

export function renderScenario(report: ScenarioReport): string {
  const metricNames = [...new Set(report.rows.flatMap((row) => Object.keys(row.metrics)))];
  const rows = report.rows.map((row) => [
    row.label,
    ...metricNames.map((name) => formatNumber(row.metrics[name] ?? Number.NaN)),
  ]);
  const targets = report.targets.map(
    (target) =>
      `  ${passes(target) ? "PASS" : "MISS"}  ${target.name}: ${formatNumber(target.measured)}${target.unit} ` +
      `(target ${target.kind === "min" ? ">=" : "<="} ${formatNumber(target.threshold)}${target.unit})`,
  );
  const notes = report.notes.map((note) => `  note: ${note}`);
  return [`\n## ${report.id}. ${report.title}`, table(["", ...metricNames], rows), ...targets, ...notes].join("\n");
}

export interface RunRecord {
  mode: string;
  startedAt: string;
  node: string;
  cpus: number;
  scenarios: ScenarioReport[];
  failures: Array<{ id: string; error: string }>;
  /** Scenarios that cannot run on this machine, and why. */
  skipped: Array<{ id: string; reason: string }>;
}

export function saveRun(path: string, record: RunRecord): void {
  const withVerdicts = {
    ...record,
    scenarios: record.scenarios.map((scenario) => ({
      ...scenario,
      targets: scenario.targets.map((target) => ({ ...target, pass: passes(target) })),
    })),
  };
  writeFileSync(path, JSON.stringify(withVerdicts, null, 2) + "\n");
}
