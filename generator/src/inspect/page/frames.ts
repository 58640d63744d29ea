/**
 * Every frame sent to and received from the engine, oldest first, each with the time since
 * its call's request was sent, the verdict of validateFrame (@rcp-gen/runtime/testing) and a
 * button that copies it as JSON. A reconnect to a call's cut stream is a line of its own, and
 * the frames it delivered are marked resumed.
 */
import type { Reconnect, RecordedFrame } from "../messages.js";
import { frames } from "./api.js";
import { h, plain, pretty } from "./dom.js";

/** The pane, and a promise kept once it shows the first `count` frames (those so far). */
export function framesPane(count: number): { element: HTMLElement; shown: Promise<void> } {
  const list = h("ol", { id: "frames", class: "frames" });
  let lastSeq = 0;
  let caughtUp: () => void = () => undefined;
  const shown = new Promise<void>((resolve) => (caughtUp = resolve));
  if (count === 0) caughtUp();
  frames((recorded) => {
    // EventSource replays everything after a reconnect: frames already shown are skipped.
    if (recorded.seq <= lastSeq) return;
    lastSeq = recorded.seq;
    list.append(recorded.direction === "reconnect" ? reconnectItem(recorded) : frameItem(recorded));
    if (lastSeq >= count) caughtUp();
  });
  return { element: h("section", { id: "frames-pane", class: "panel" }, h("h2", null, "Frames"), list), shown };
}

/** "0 ms" for a request, "+231 ms" for what followed it, seconds past ten of them; "" for a frame of no call. */
function sinceCall(recorded: RecordedFrame): string {
  const ms = recorded.sinceCall;
  if (ms === undefined) return "";
  if (ms === 0) return "0 ms";
  return ms < 10_000 ? `+${ms} ms` : `+${(ms / 1000).toFixed(1)} s`;
}

function reconnectItem(recorded: RecordedFrame): HTMLElement {
  const { method, id, attempt, afterEvent } = recorded.frame as Reconnect;
  return h(
    "li",
    { class: "frame reconnect", "data-seq": String(recorded.seq) },
    h(
      "div",
      { class: "line" },
      h("span", { class: "dir" }, "↻"),
      h("span", { class: "at", title: `${recorded.at} ms since the connection opened` }, sinceCall(recorded)),
      h(
        "span",
        { class: "what" },
        `stream cut: reconnect ${attempt} for ${method} #${plain(id)}, resuming after event ${afterEvent}`,
      ),
    ),
  );
}

function frameItem(recorded: RecordedFrame): HTMLElement {
  const text = pretty(recorded.frame);
  const copy = h("button", { type: "button", class: "copy" }, "Copy");
  copy.addEventListener("click", () => {
    void navigator.clipboard.writeText(text).then(() => (copy.textContent = "Copied"));
  });
  return h(
    "li",
    {
      class: `frame ${recorded.direction} ${recorded.ok ? "valid" : "invalid"}${recorded.resumed ? " resumed" : ""}`,
      "data-seq": String(recorded.seq),
      title: recorded.resumed ? "delivered by a reconnect after the stream was cut" : undefined,
    },
    h(
      "details",
      null,
      h(
        "summary",
        null,
        h("span", { class: "dir" }, recorded.direction === "sent" ? "→" : "←"),
        h("span", { class: "at", title: `${recorded.at} ms since the connection opened` }, sinceCall(recorded)),
        h("span", { class: "what" }, summary(recorded.frame)),
        h(
          "span",
          { class: recorded.ok ? "ok" : "bad" },
          recorded.ok ? "✓ valid" : `✗ ${recorded.problems.length} problem(s)`,
        ),
        copy,
      ),
      recorded.problems.length === 0
        ? null
        : h("ul", { class: "problems" }, ...recorded.problems.map((line) => h("li", null, line))),
      h("pre", null, text),
    ),
  );
}

function summary(frame: unknown): string {
  const message = (frame ?? {}) as {
    id?: unknown;
    method?: unknown;
    error?: { code?: unknown };
    result?: unknown;
    params?: { stage?: unknown };
  };
  const id = message.id === undefined ? "" : ` #${plain(message.id)}`;
  if (typeof message.method === "string")
    return `${message.method}${id}${typeof message.params?.stage === "string" ? ` ${message.params.stage}` : ""}`;
  if (message.error !== undefined) return `error ${String(message.error.code)}${id}`;
  return `result${id}`;
}
