/**
 * `rcp-gen/vitest`: the conformance suite inside an engine's own vitest run. The server is
 * tested while vitest collects the suite, then every check becomes a test (skipped and
 * inconclusive checks skipped, SHOULD checks passing with their warning in the title) plus one
 * for the verdict, which an inconclusive level fails, saying why.
 * As `rcp-gen conform`, it holds the server to one level: `level`, else the one it declares
 * (`_meta.conformance`); checks of higher levels are skipped.
 */
import { describe, expect, it } from "vitest";
import { inconclusiveReason, outcomeAt } from "../conform/report.js";
import { LEVELS } from "../conform/check.js";
import { runConformance, type ConformRunOptions, type ConformTarget } from "../conform/run.js";

export function describeConformance(target: ConformTarget, options: ConformRunOptions = {}): void {
  const label = "http" in target ? target.http : target.command.join(" ");
  describe(`RCP/1 conformance of ${label}`, async () => {
    const report = await runConformance(target, options);
    for (const check of report.checks) {
      const title = `${check.level} ${check.section} ${check.id}: ${check.title}`;
      if (check.status === "skip") it.skip(`${title} (${check.detail ?? "not applicable"})`, () => undefined);
      else if (check.status === "inconclusive")
        it.skip(`${title} [inconclusive: ${check.detail ?? ""}]`, () => undefined);
      else if (check.status === "warn") it(`${title} [SHOULD, not met: ${check.detail ?? ""}]`, () => undefined);
      else
        it(title, () => {
          if (check.status === "fail") expect.fail(check.detail ?? "failed");
        });
    }
    const claim =
      options.level === undefined ? `the declared level (${String(report.declaredLevel)})` : `level ${options.level}`;
    it(`${claim} holds`, () => {
      const certified = report.certifiedLevel ?? "no level";
      const level = options.level ?? LEVELS.find((declared) => declared === report.declaredLevel);
      const outcome = level === undefined ? "fails" : outcomeAt(report, level);
      const why = outcome === "inconclusive" ? `; inconclusive: ${inconclusiveReason(report)}` : "";
      expect(outcome, `declared ${String(report.declaredLevel)}, certified ${certified}${why}`).toBe("holds");
    });
  });
}
