/**
 * One call as it happens: each progress frame on a timeline as it arrives, the retrieval
 * funnel (§3.3) from the partials and then from the result's `usage` (candidates → reranked
 * → returned), the partial hits updated in place, then the final hits (score as a bar,
 * citation, trust flags standing out) or the error, e.g. the -32006 of a cancelled call.
 */
import type { CallEvent } from "../messages.js";
import { cancel } from "./api.js";
import { h, pretty } from "./dom.js";

interface Hit {
  id?: unknown;
  score?: unknown;
  text?: unknown;
  citation?: { source?: string; uri?: string; title?: string; page?: number; start?: number; end?: number };
  trust?: { level?: string; score?: number; injectionSuspected?: boolean; sanitized?: boolean };
}

export class CallView {
  readonly element: HTMLElement;
  readonly #timeline = h("ol", { id: "timeline", class: "timeline" });
  readonly #funnel = h("div", { id: "funnel", class: "funnel" });
  readonly #partial = h("tbody");
  readonly #outcome = h("div", { id: "outcome" });
  readonly #cancel = h("button", { id: "cancel", type: "button", disabled: true }, "Cancel");
  readonly #status = h("span", { id: "call-status", class: "status" }, "idle");
  #callId: string | undefined;

  constructor() {
    this.#cancel.addEventListener("click", () => {
      if (this.#callId === undefined) return;
      this.#cancel.disabled = true;
      this.#status.textContent = "cancelling…";
      void cancel(this.#callId);
    });
    this.element = h(
      "section",
      { id: "stream", class: "panel" },
      h("h2", null, "Call ", this.#status, " ", this.#cancel),
      h(
        "div",
        { class: "stream-grid" },
        h("div", null, h("h3", null, "Progress"), this.#timeline),
        h("div", null, h("h3", null, "Funnel"), this.#funnel),
      ),
      h(
        "details",
        { id: "partial-hits", open: true, hidden: true },
        h("summary", null, "Partial hits (updated in place)"),
        h(
          "table",
          { class: "grid hits" },
          h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, "id"), h("th", null, "score"))),
          this.#partial,
        ),
      ),
      this.#outcome,
    );
  }

  /** Clears the view for a new call. */
  begin(method: string): void {
    this.#callId = undefined;
    this.#timeline.replaceChildren();
    this.#funnel.replaceChildren();
    this.#partial.replaceChildren();
    this.#partial.closest("details")!.hidden = true;
    this.#outcome.replaceChildren();
    this.#status.textContent = `${method}: running`;
    this.element.dataset.state = "running";
  }

  event(event: CallEvent): void {
    switch (event.type) {
      case "started":
        this.#callId = event.callId;
        this.#cancel.disabled = false;
        return;
      case "progress":
        return this.#progress(event);
      case "result":
        this.#end("done");
        return this.#result(event.result, event.at);
      case "error": {
        this.#end(event.error.code === -32006 ? "cancelled" : "failed");
        const data = event.error.data === undefined ? null : h("pre", null, pretty(event.error.data));
        this.#outcome.replaceChildren(
          h(
            "div",
            { id: "call-error", class: "error", "data-code": String(event.error.code ?? "") },
            h("strong", null, event.error.code === undefined ? "error" : String(event.error.code)),
            ` ${event.error.message} `,
            h("span", { class: "muted" }, `after ${event.at} ms`),
            data,
          ),
        );
      }
    }
  }

  #end(state: string): void {
    this.#cancel.disabled = true;
    this.#status.textContent = state;
    this.element.dataset.state = state;
  }

  #progress(event: Extract<CallEvent, { type: "progress" }>): void {
    const fraction = typeof event.progress === "number" ? event.progress : 0;
    const bar = h("span", { class: "bar" });
    bar.style.width = `${Math.round(Math.min(1, fraction) * 100)}%`;
    const hits = partialHits(event.partial);
    this.#timeline.append(
      h(
        "li",
        { class: "frame" },
        h("span", { class: "at" }, `+${event.at} ms`),
        h("span", { class: "stage" }, event.stage ?? "progress"),
        h("span", { class: "meter" }, bar),
        h("span", { class: "fraction" }, `${Math.round(fraction * 100)}%`),
        event.message === undefined ? null : h("span", { class: "message" }, event.message),
      ),
    );
    if (hits !== undefined) {
      this.#step(event.stage ?? "progress", hits.length, "partial hits");
      this.#updatePartial(hits);
    }
  }

  /** One row of the funnel, created the first time its stage is seen and then updated. */
  #step(name: string, count: number | undefined, unit: string): void {
    let row = this.#funnel.querySelector<HTMLElement>(`[data-step="${CSS.escape(name)}"]`);
    if (row === null) {
      row = h(
        "div",
        { class: "step", "data-step": name },
        h("span", { class: "name" }, name),
        h("span", { class: "meter" }, h("span", { class: "bar" })),
        h("span", { class: "count" }),
      );
      this.#funnel.append(row);
    }
    row.querySelector(".count")!.textContent = count === undefined ? "—" : `${count} ${unit}`;
    row.dataset.count = String(count ?? 0);
    const counts = [...this.#funnel.querySelectorAll<HTMLElement>(".step")].map((step) => Number(step.dataset.count));
    const widest = Math.max(1, ...counts);
    for (const step of this.#funnel.querySelectorAll<HTMLElement>(".step"))
      step.querySelector<HTMLElement>(".bar")!.style.width = `${(Number(step.dataset.count) / widest) * 100}%`;
  }

  /** The partial hits in their new order, each row kept (by id) so its change is visible. */
  #updatePartial(hits: readonly Hit[]): void {
    const existing = new Map([...this.#partial.rows].map((row) => [row.dataset.id, row]));
    const top = maxScore(hits);
    const rows = hits.map((hit, rank) => {
      const id = String(hit.id);
      const row = existing.get(id) ?? h("tr", { "data-id": id, class: "arrived" }, h("td"), h("td", null, id), h("td"));
      const before = Number(row.dataset.rank ?? rank);
      row.dataset.rank = String(rank);
      row.classList.toggle("moved-up", before > rank);
      row.classList.toggle("moved-down", before < rank);
      row.cells[0]!.textContent = String(rank + 1);
      row.cells[2]!.replaceChildren(scoreBar(hit.score, top));
      existing.delete(id);
      return row;
    });
    for (const dropped of existing.values()) dropped.remove();
    this.#partial.replaceChildren(...rows);
    this.#partial.closest("details")!.hidden = false;
  }

  #result(result: unknown, at: number): void {
    const value = (result ?? {}) as {
      hits?: Hit[];
      usage?: { candidates?: number; reranked?: number; latencyMs?: number; notes?: string[] };
    };
    if (!Array.isArray(value.hits)) {
      this.#outcome.replaceChildren(
        h(
          "div",
          { id: "call-result" },
          h("p", { class: "muted" }, `answered after ${at} ms`),
          h("pre", null, pretty(result)),
        ),
      );
      return;
    }
    const usage = value.usage ?? {};
    this.#step("candidates", usage.candidates, "(usage)");
    this.#step("reranked", usage.reranked, "(usage)");
    this.#step("returned", value.hits.length, "hits");
    const top = maxScore(value.hits);
    const rows = value.hits.map((hit, rank) =>
      h(
        "tr",
        { "data-id": String(hit.id), class: flagged(hit) ? "flagged" : undefined },
        h("td", null, String(rank + 1)),
        h("td", null, h("code", null, String(hit.id))),
        h("td", null, scoreBar(hit.score, top)),
        h("td", { class: "text" }, typeof hit.text === "string" ? clip(hit.text, 160) : ""),
        h("td", null, citation(hit.citation)),
        h("td", null, ...trustFlags(hit.trust)),
      ),
    );
    this.#outcome.replaceChildren(
      h(
        "div",
        { id: "call-result" },
        h(
          "h3",
          null,
          `${value.hits.length} hits `,
          h(
            "span",
            { class: "muted" },
            `after ${at} ms${usage.latencyMs === undefined ? "" : `, ${usage.latencyMs} ms at the engine`}`,
          ),
        ),
        ...(usage.notes ?? []).map((note) => h("p", { class: "note" }, note)),
        h(
          "table",
          { id: "hits", class: "grid hits" },
          h(
            "thead",
            null,
            h("tr", null, ...["#", "id", "score", "text", "citation", "trust"].map((name) => h("th", null, name))),
          ),
          h("tbody", null, ...rows),
        ),
        h("details", null, h("summary", null, "result JSON"), h("pre", null, pretty(result))),
      ),
    );
  }
}

function partialHits(partial: unknown): Hit[] | undefined {
  const hits = (partial as { hits?: unknown } | undefined)?.hits;
  return Array.isArray(hits) ? (hits as Hit[]) : undefined;
}

const maxScore = (hits: readonly Hit[]): number =>
  Math.max(1e-9, ...hits.map((hit) => (typeof hit.score === "number" ? Math.abs(hit.score) : 0)));

function scoreBar(score: unknown, top: number): HTMLElement {
  const value = typeof score === "number" ? score : 0;
  const bar = h("span", { class: "bar" });
  bar.style.width = `${Math.round((Math.abs(value) / top) * 100)}%`;
  return h(
    "span",
    { class: "score" },
    h("span", { class: "meter" }, bar),
    h("span", { class: "value" }, value.toFixed(4)),
  );
}

function citation(cited: Hit["citation"]): string {
  if (cited === undefined) return "";
  const where = [
    cited.page === undefined ? "" : `p. ${cited.page}`,
    cited.start === undefined ? "" : `${cited.start}–${cited.end ?? ""}`,
  ];
  return [cited.title ?? cited.source, cited.uri, ...where].filter(Boolean).join(" · ");
}

const flagged = (hit: Hit): boolean =>
  hit.trust !== undefined &&
  (hit.trust.level !== "trusted" || hit.trust.injectionSuspected === true || hit.trust.sanitized === true);

function trustFlags(trust: Hit["trust"]): HTMLElement[] {
  if (trust === undefined) return [];
  const flags = [h("span", { class: `chip trust-${trust.level ?? "unknown"}` }, trust.level ?? "?")];
  if (trust.injectionSuspected === true) flags.push(h("span", { class: "chip danger" }, "injection suspected"));
  if (trust.sanitized === true) flags.push(h("span", { class: "chip warn" }, "sanitized"));
  return flags;
}

const clip = (text: string, length: number): string => (text.length > length ? `${text.slice(0, length)}…` : text);
