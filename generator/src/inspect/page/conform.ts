/**
 * The last `rcp-gen conform` report for this engine, run and rendered when asked for. It sits
 * in the narrow left column, so each check is one line (status, level, id) that opens to its
 * section, title and detail, the ones that did not pass first, in a box that scrolls rather
 * than growing the page.
 */
import { LEVELS, type Status } from "../../conform/check.js";
import { describeQuery, inconclusiveReason, outcomeAt } from "../../conform/report.js";
import type { ConformReport } from "../messages.js";
import { lastConform, runConform } from "./api.js";
import { h, plain } from "./dom.js";

/** The pane, and a promise kept once the last report (if any) is drawn. */
export function conformPane(): { element: HTMLElement; loaded: Promise<void> } {
  const body = h("div", { id: "conform-report" });
  const run = h("button", { id: "run-conform", type: "button" }, "Run rcp-gen conform");
  run.addEventListener("click", () => {
    run.disabled = true;
    body.replaceChildren(h("p", { class: "muted" }, "Running the conformance suite against this engine…"));
    runConform()
      .then(
        (report) => body.replaceChildren(...rendered(report)),
        (error: unknown) => body.replaceChildren(h("p", { class: "error" }, String((error as Error).message))),
      )
      .finally(() => (run.disabled = false));
  });
  const loaded = lastConform().then(
    (report) => void (report && body.replaceChildren(...rendered(report))),
    () => undefined,
  );
  return { element: h("section", { id: "conform", class: "panel" }, h("h2", null, "Conformance ", run), body), loaded };
}

const ORDER: readonly Status[] = ["fail", "inconclusive", "warn", "pass", "skip"];

function rendered(report: ConformReport): HTMLElement[] {
  const { pass, fail, warn, skip, inconclusive } = report.counts;
  const declared = LEVELS.find((level) => level === report.declaredLevel);
  const outcome = declared === undefined ? "fails" : outcomeAt(report, declared);
  const checks = [...report.checks].sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status));
  return [
    h(
      "p",
      { class: { holds: "ok", fails: "bad", inconclusive: "undecided" }[outcome], id: "conform-verdict" },
      `declared ${plain(report.declaredLevel ?? "nothing")}, certified ${report.certifiedLevel ?? "none"}: `,
      outcome === "holds"
        ? "the declared level holds"
        : outcome === "fails"
          ? "the declared level does not hold"
          : `inconclusive: ${inconclusiveReason(report) ?? ""}`,
    ),
    h("p", { class: "muted", id: "conform-query" }, describeQuery(report.query)),
    h(
      "p",
      { class: "muted" },
      `${pass} pass, ${fail} fail, ${inconclusive} inconclusive, ${warn} warn, ${skip} skip in ${report.milliseconds} ms`,
    ),
    ...report.notes.map((note) => h("p", { class: "note" }, note)),
    h(
      "div",
      { class: "checks" },
      ...checks.map((check) =>
        h(
          "details",
          { class: `check ${check.status}` },
          h(
            "summary",
            null,
            h("span", { class: "status" }, check.status),
            h("span", { class: "level" }, check.level),
            h("code", { class: "id" }, check.id),
          ),
          h("p", null, `${check.section}: ${check.title}`),
          check.detail === undefined ? null : h("p", { class: "detail" }, check.detail),
        ),
      ),
    ),
  ];
}
