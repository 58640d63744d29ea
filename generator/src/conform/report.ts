/**
 * The verdict of a run (§14.5): a level is certified when no MUST check of it or of a lower
 * level failed (and, above L0, at least one of its checks passed); the declared level holds
 * when it is certified. Rendered as a table for people and as JSON for CI.
 */
import { LEVELS, type CheckResult, type Level } from "./check.js";
import type { Transport } from "./session.js";

export interface ConformReport {
  readonly transport: Transport;
  readonly target: string;
  readonly schema: string;
  readonly server: { name?: string; version?: string };
  readonly declaredLevel: unknown;
  /** The level the server was held to (--level, else the declared one); checks above it were skipped. */
  readonly level: Level | null;
  readonly certifiedLevel: Level | null;
  /** The declared level is a level, and it is certified. */
  readonly declarationHolds: boolean;
  readonly counts: Readonly<Record<CheckResult["status"], number>>;
  readonly milliseconds: number;
  /** What happened beside the checks, e.g. a stdio server that died and was restarted. */
  readonly notes: readonly string[];
  readonly checks: readonly CheckResult[];
}

type Unjudged = Omit<ConformReport, "certifiedLevel" | "declarationHolds" | "counts" | "checks"> & {
  results: readonly CheckResult[];
};

export function certify(run: Unjudged): ConformReport {
  const { results, ...rest } = run;
  let certified: Level | null = null;
  for (const level of LEVELS) {
    const upTo = results.filter((result) => LEVELS.indexOf(result.level) <= LEVELS.indexOf(level));
    if (upTo.some((result) => result.status === "fail")) break;
    if (level !== "L0" && !results.some((result) => result.level === level && result.status === "pass")) break;
    certified = level;
  }
  const declared = LEVELS.find((level) => level === run.declaredLevel);
  const counts = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const result of results) counts[result.status]++;
  return {
    ...rest,
    certifiedLevel: certified,
    declarationHolds:
      declared !== undefined && certified !== null && LEVELS.indexOf(declared) <= LEVELS.indexOf(certified),
    counts,
    checks: results,
  };
}

const STATUS: Readonly<Record<CheckResult["status"], string>> = {
  pass: "pass",
  fail: "FAIL",
  warn: "warn",
  skip: "skip",
};

export function renderTable(report: ConformReport): string {
  const sectionWidth = Math.max(7, ...report.checks.map((check) => check.section.length));
  const lines = [
    `rcp-gen conform: ${report.transport} ${report.target}`,
    `server ${report.server.name ?? "(unnamed)"} ${report.server.version ?? ""} declares ${describe(report.declaredLevel)}; schema ${report.schema}`,
    "",
    `level  result  ${"section".padEnd(sectionWidth)}  check`,
  ];
  for (const check of report.checks) {
    lines.push(
      `${check.level.padEnd(5)}  ${STATUS[check.status].padEnd(6)}  ${check.section.padEnd(sectionWidth)}  ${check.id}: ${check.title}`,
    );
    if (check.detail !== undefined && check.status !== "pass")
      lines.push(`${" ".repeat(17 + sectionWidth)}${check.status === "skip" ? "skipped: " : "-> "}${check.detail}`);
  }
  const { pass, fail, warn, skip } = report.counts;
  if (report.notes.length > 0) lines.push("", ...report.notes.map((note) => `note: ${note}`));
  lines.push(
    "",
    `${report.checks.length} checks: ${pass} pass, ${fail} fail, ${warn} warn (SHOULD), ${skip} skip, in ${report.milliseconds} ms`,
    LEVELS.map((level) => `${level} ${isCertified(report, level) ? "certified" : "not certified"}`).join(" · "),
    `declared ${describe(report.declaredLevel)}: ${report.declarationHolds ? "holds" : "does NOT hold"}`,
    ...(report.level === null || report.level === report.declaredLevel
      ? []
      : [`level ${report.level}: ${isCertified(report, report.level) ? "holds" : "does NOT hold"}`]),
  );
  return `${lines.join("\n")}\n`;
}

export function isCertified(report: ConformReport, level: Level): boolean {
  return report.certifiedLevel !== null && LEVELS.indexOf(level) <= LEVELS.indexOf(report.certifiedLevel);
}

function describe(level: unknown): string {
  return typeof level === "string" ? level : "no level";
}
