/**
 * The findings of one comparison, each change reported once: a change in a shared type reached
 * from several methods is one finding naming each of them (`via`), at the severity of the
 * reader it breaks worst.
 */
import { severityRank, type Finding, type RuleId, type Severity } from "./rules.js";

export interface NewFinding {
  readonly rule: RuleId;
  readonly severity: Severity;
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
}

export class FindingSet {
  readonly #byKey = new Map<string, { finding: NewFinding; via: Set<string> }>();

  add(finding: NewFinding, via: string): void {
    const key = `${finding.rule}\n${finding.file}\n${finding.pointer}\n${finding.message}`;
    const known = this.#byKey.get(key);
    if (!known) {
      this.#byKey.set(key, { finding, via: new Set(via === "" ? [] : [via]) });
      return;
    }
    if (via !== "") known.via.add(via);
    if (severityRank[finding.severity] > severityRank[known.finding.severity]) known.finding = finding;
  }

  /** Whether some finding lies in `file` and satisfies `where` (a pointer test). */
  touches(file: string, where: (pointer: string) => boolean): boolean {
    for (const { finding } of this.#byKey.values()) if (finding.file === file && where(finding.pointer)) return true;
    return false;
  }

  /** Drops the findings `drop` selects (a folder rule that says it better replaces them). */
  remove(drop: (finding: NewFinding) => boolean): void {
    for (const [key, { finding }] of this.#byKey) if (drop(finding)) this.#byKey.delete(key);
  }

  /** Worst first, then by place. */
  list(): Finding[] {
    return [...this.#byKey.values()]
      .map(({ finding, via }) => ({ ...finding, via: [...via].sort() }))
      .sort(
        (a, b) =>
          severityRank[b.severity] - severityRank[a.severity] ||
          a.file.localeCompare(b.file) ||
          a.pointer.localeCompare(b.pointer) ||
          a.rule.localeCompare(b.rule),
      );
  }
}
