/**
 * `rcp-gen breaking` over this repository's own history of schema/: every commit that changed
 * it, against its parent, must come out exactly as schema-history.json records (each entry
 * with a person's explanation of why that is right), and no change may be left unclassified.
 * A shallow clone fails: CI clones the whole history.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { historyProblem, schemaHistory } from "./schema-history.js";

interface Recorded {
  readonly subject: string;
  readonly explanation: string;
  readonly findings?: readonly string[];
}

const recorded = JSON.parse(readFileSync(new URL("schema-history.json", import.meta.url), "utf8")) as Record<
  string,
  Recorded
>;

describe("rcp-gen breaking over the history of schema/", () => {
  it("reads the whole history (a shallow clone fails, never skips)", () => {
    expect(historyProblem()).toBeUndefined();
  });

  const history = historyProblem() === undefined ? schemaHistory() : [];

  it("classifies every change of every commit: none left unclassified", () => {
    const unclassified = history.flatMap(({ commit, findings = [] }) =>
      findings.filter((finding) => finding.includes(" unclassified-change ")).map((finding) => `${commit} ${finding}`),
    );
    expect(unclassified).toEqual([]);
  });

  it("finds in each commit what schema-history.json records and explains", () => {
    const unrecorded = history.filter(({ commit }) => recorded[commit] === undefined);
    // A new commit that changes schema/ adds its entry: the subject, why its findings are right, and these findings.
    expect(
      unrecorded.map(({ commit, subject, findings }) => ({ commit, subject, findings })),
      "commits that changed schema/ and are missing from test/evolve/schema-history.json",
    ).toEqual([]);
    for (const { commit, findings } of history) {
      const entry = recorded[commit]!;
      expect(entry.explanation, `${commit} needs an explanation`).not.toBe("");
      expect(findings, `${commit} ${entry.subject}`).toEqual(entry.findings);
    }
    expect(Object.keys(recorded).filter((commit) => !history.some((each) => each.commit === commit))).toEqual([]);
  });
});
