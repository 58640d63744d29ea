/**
 * The verdict of a run (§14.5): a level is certified when no MUST check of it or of a lower
 * level failed or was inconclusive (and, above L0, at least one of its checks passed); the
 * declared level holds when it is certified. A level no check failed up to, but a MUST check
 * of which (or of a lower level) was inconclusive, is inconclusive: not certified, and not
 * shown wrong either. Rendered as a table for people and as JSON for CI.
 */
import { LEVELS, type CheckResult, type Level } from "./check.js";
import type { ProbeQuery } from "./probe-query.js";
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
  /** The lowest level that could not be decided (see above), or null. */
  readonly inconclusiveLevel: Level | null;
  /** The declared level is a level, and it is certified. */
  readonly declarationHolds: boolean;
  /** The query of retrieval calls, where it came from, and whether the engine found anything for it. */
  readonly query: ProbeQuery;
  readonly counts: Readonly<Record<CheckResult["status"], number>>;
  readonly milliseconds: number;
  /** What happened beside the checks, e.g. a stdio server that died and was restarted. */
  readonly notes: readonly string[];
  readonly checks: readonly CheckResult[];
}

type Unjudged = Omit<
  ConformReport,
  "certifiedLevel" | "inconclusiveLevel" | "declarationHolds" | "counts" | "checks"
> & {
  results: readonly CheckResult[];
};

export function certify(run: Unjudged): ConformReport {
  const { results, ...rest } = run;
  let certified: Level | null = null;
  let inconclusive: Level | null = null;
  for (const level of LEVELS) {
    const upTo = results.filter((result) => LEVELS.indexOf(result.level) <= LEVELS.indexOf(level));
    if (upTo.some((result) => result.status === "fail")) break;
    if (upTo.some((result) => result.status === "inconclusive" && result.must)) {
      inconclusive = level;
      break;
    }
    if (level !== "L0" && !results.some((result) => result.level === level && result.status === "pass")) break;
    certified = level;
  }
  const declared = LEVELS.find((level) => level === run.declaredLevel);
  const counts = { pass: 0, fail: 0, warn: 0, skip: 0, inconclusive: 0 };
  for (const result of results) counts[result.status]++;
  return {
    ...rest,
    certifiedLevel: certified,
    inconclusiveLevel: inconclusive,
    declarationHolds:
      declared !== undefined && certified !== null && LEVELS.indexOf(declared) <= LEVELS.indexOf(certified),
    counts,
    checks: results,
  };
}

/** Whether `level` holds, was shown not to, or could not be decided. */
export function outcomeAt(report: ConformReport, level: Level): "holds" | "fails" | "inconclusive" {
  if (isCertified(report, level)) return "holds";
  const undecided = report.inconclusiveLevel;
  return undecided !== null && LEVELS.indexOf(undecided) <= LEVELS.indexOf(level) ? "inconclusive" : "fails";
}

/** Why the report is inconclusive: the detail of its first inconclusive MUST check. */
export function inconclusiveReason(report: ConformReport): string | undefined {
  return report.checks.find((check) => check.status === "inconclusive" && check.must)?.detail;
}

const STATUS: Readonly<Record<CheckResult["status"], string>> = {
  pass: "pass",
  fail: "FAIL",
  warn: "warn",
  skip: "skip",
  inconclusive: "inconclusive",
};

export function renderTable(report: ConformReport): string {
  const sectionWidth = Math.max(7, ...report.checks.map((check) => check.section.length));
  const statusWidth = Math.max(6, ...report.checks.map((check) => STATUS[check.status].length));
  const lines = [
    `rcp-gen conform: ${report.transport} ${report.target}`,
    `server ${report.server.name ?? "(unnamed)"} ${report.server.version ?? ""} declares ${describe(report.declaredLevel)}; schema ${report.schema}`,
    describeQuery(report.query),
    "",
    `level  ${"result".padEnd(statusWidth)}  ${"section".padEnd(sectionWidth)}  check`,
  ];
  for (const check of report.checks) {
    lines.push(
      `${check.level.padEnd(5)}  ${STATUS[check.status].padEnd(statusWidth)}  ${check.section.padEnd(sectionWidth)}  ${check.id}: ${check.title}`,
    );
    if (check.detail !== undefined && check.status !== "pass")
      lines.push(
        `${" ".repeat(11 + statusWidth + sectionWidth)}${check.status === "skip" ? "skipped: " : "-> "}${check.detail}`,
      );
  }
  const { pass, fail, warn, skip, inconclusive } = report.counts;
  if (report.notes.length > 0) lines.push("", ...report.notes.map((note) => `note: ${note}`));
  const verdict = (level: Level) =>
    ({ holds: "certified", fails: "not certified", inconclusive: "inconclusive" })[outcomeAt(report, level)];
  const holds = (level: Level) => {
    const outcome = outcomeAt(report, level);
    return outcome === "holds"
      ? "holds"
      : outcome === "fails"
        ? "does NOT hold"
        : `inconclusive: ${inconclusiveReason(report)} (certified ${report.certifiedLevel ?? "none"})`;
  };
  const declared = LEVELS.find((level) => level === report.declaredLevel);
  lines.push(
    "",
    `${report.checks.length} checks: ${pass} pass, ${fail} fail, ${warn} warn (SHOULD), ${inconclusive === 0 ? "" : `${inconclusive} inconclusive, `}${skip} skip, in ${report.milliseconds} ms`,
    LEVELS.map((level) => `${level} ${verdict(level)}`).join(" · "),
    `declared ${describe(report.declaredLevel)}: ${declared === undefined ? "does NOT hold" : holds(declared)}`,
    ...(report.level === null || report.level === report.declaredLevel
      ? []
      : [`level ${report.level}: ${holds(report.level)}`]),
  );
  return `${lines.join("\n")}\n`;
}

/** A line for the report: the query, where it came from, what the level checks query. */
export function describeQuery(query: ProbeQuery): string {
  const nor = (query.alsoTried ?? []).map((text) => `"${text}"`).join(" or ");
  const found = query.found === false ? `; the engine found no hits for it${nor === "" ? "" : ` nor for ${nor}`}` : "";
  const level =
    query.levelQuery === query.text ? "" : `; level checks query "${query.levelQuery}" (words of its first hit)`;
  return `probe query "${query.text}" (${query.source})${found}${level}`;
}

export function isCertified(report: ConformReport, level: Level): boolean {
  return report.certifiedLevel !== null && LEVELS.indexOf(level) <= LEVELS.indexOf(report.certifiedLevel);
}

function describe(level: unknown): string {
  return typeof level === "string" ? level : "no level";
}
