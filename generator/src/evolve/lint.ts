/**
 * `rcp-gen lint`: checks a schema folder against the rules of lint-rules.ts, each at the level
 * the settings give it (`"lint": { "<rule>": "off" | "warn" | "error" }` in rcp-gen.config.json
 * or package.json's "rcp-gen"; every rule is an error by default).
 * Exit codes: 0 no error-level finding, 1 some, 2 a usage error or a folder that does not load.
 */
import { loadSchemaFolder, type LoadedSchemaFolder } from "../load/loader.js";
import { rcpSchemaDir } from "../shipped.js";
import { lintRuleIds, lintRules, type LintFinding, type LintRuleId } from "./lint-rules.js";

export type LintLevel = "off" | "warn" | "error";

export interface LintOptions {
  readonly schema: string;
  /** Each rule's level; a rule left out is an error. */
  readonly levels?: Readonly<Partial<Record<LintRuleId, LintLevel>>>;
  readonly json: boolean;
  readonly cwd?: string;
  readonly write?: (text: string) => void;
}

export interface LeveledFinding extends LintFinding {
  readonly level: "warn" | "error";
}

let shippedProtocol: LoadedSchemaFolder | undefined;

/** The findings of every rule not turned off, at its level. */
export function lintFolder(schema: string, levels: LintOptions["levels"] = {}, cwd = process.cwd()): LeveledFinding[] {
  shippedProtocol ??= loadSchemaFolder(rcpSchemaDir());
  const input = { folder: loadSchemaFolder(schema, cwd), protocol: shippedProtocol };
  return lintRuleIds.flatMap((rule) => {
    const level = levels[rule] ?? "error";
    return level === "off" ? [] : lintRules[rule].check(input).map((finding) => ({ ...finding, level }));
  });
}

export function lint(options: LintOptions): number {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const findings = lintFolder(options.schema, options.levels, options.cwd);
  const errors = findings.filter((finding) => finding.level === "error").length;
  if (options.json) write(`${JSON.stringify({ errors, findings }, null, 2)}\n`);
  else {
    const rows = findings.map((finding) => [
      finding.level,
      finding.rule,
      `${finding.file}#${finding.pointer}`,
      finding.message,
    ]);
    const widths = [0, 1, 2].map((column) => Math.max(0, ...rows.map((row) => row[column]!.length)));
    const lines = rows.map((row) =>
      row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join("  "),
    );
    const warnings = findings.length - errors;
    write(
      `${lines.map((line) => `${line}\n`).join("")}rcp-gen lint: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} in ${options.schema}\n`,
    );
  }
  return errors > 0 ? 1 : 0;
}
