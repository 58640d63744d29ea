/** How `rcp-gen breaking` prints its findings: a table for people, or JSON for tools. */
import { severityRank, type Finding, type Severity } from "./rules.js";

export type Level = "wire" | "code";

/** Whether a finding fails the run at `level`: wire changes always, code changes at the code level. */
export function fails(finding: Finding, level: Level): boolean {
  return severityRank[finding.severity] >= severityRank[level === "wire" ? "wire" : "code"];
}

const label: Readonly<Record<Severity, string>> = {
  wire: "BREAKING",
  code: "code",
  safe: "safe",
};

export function renderFindings(findings: readonly Finding[], level: Level, against: string): string {
  const failing = findings.filter((finding) => fails(finding, level)).length;
  if (findings.length === 0) return `rcp-gen breaking: no changes against ${against}\n`;
  const rows = findings.map((finding) => [
    fails(finding, level) ? label[finding.severity] : finding.severity === "code" ? "code (ok at wire)" : "safe",
    finding.rule,
    `${finding.file}#${finding.pointer}`,
    finding.message + (finding.via.length > 0 ? ` [via ${finding.via.join(", ")}]` : ""),
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join("  "),
  );
  const verdict =
    failing === 0
      ? `no breaking change at the ${level} level (${findings.length} change${findings.length === 1 ? "" : "s"})`
      : `${failing} breaking change${failing === 1 ? "" : "s"} at the ${level} level, of ${findings.length}`;
  return `${lines.join("\n")}\n\nrcp-gen breaking against ${against}: ${verdict}\n`;
}
