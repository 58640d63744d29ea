/** The last `rcp-gen conform` report for this engine, run and rendered when asked for. */
import type { ConformReport } from "../messages.js";
import { lastConform, runConform } from "./api.js";
import { h, plain } from "./dom.js";

export function conformPane(): HTMLElement {
  const body = h("div", { id: "conform-report" });
  const run = h("button", { id: "run-conform", type: "button" }, "Run rcp-gen conform");
  run.addEventListener("click", () => {
    run.disabled = true;
    body.replaceChildren(h("p", { class: "muted" }, "Running the conformance suite against this engine…"));
    runConform()
      .then(
        (report) => body.replaceChildren(rendered(report)),
        (error: unknown) => body.replaceChildren(h("p", { class: "error" }, String((error as Error).message))),
      )
      .finally(() => (run.disabled = false));
  });
  void lastConform().then((report) => report && body.replaceChildren(rendered(report)));
  return h("section", { id: "conform", class: "panel" }, h("h2", null, "Conformance ", run), body);
}

function rendered(report: ConformReport): HTMLElement {
  const { pass, fail, warn, skip } = report.counts;
  return h(
    "div",
    null,
    h(
      "p",
      { class: report.declarationHolds ? "ok" : "bad", id: "conform-verdict" },
      `declared ${plain(report.declaredLevel ?? "nothing")}, certified ${report.certifiedLevel ?? "none"}: `,
      report.declarationHolds ? "the declared level holds" : "the declared level does not hold",
    ),
    h("p", { class: "muted" }, `${pass} pass, ${fail} fail, ${warn} warn, ${skip} skip in ${report.milliseconds} ms`),
    ...report.notes.map((note) => h("p", { class: "note" }, note)),
    h(
      "table",
      { class: "grid" },
      h(
        "thead",
        null,
        h("tr", null, ...["status", "level", "§", "check", "detail"].map((name) => h("th", null, name))),
      ),
      h(
        "tbody",
        null,
        ...report.checks.map((check) =>
          h(
            "tr",
            { class: `check ${check.status}` },
            h("td", null, check.status),
            h("td", null, check.level),
            h("td", null, check.section),
            h("td", null, check.title),
            h("td", null, check.detail ?? ""),
          ),
        ),
      ),
    ),
  );
}
