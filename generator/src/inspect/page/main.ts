/**
 * The inspector's page: the connection and its capabilities, a form per method, the call as
 * it streams, every frame on the wire, and the conformance report. Plain DOM, no framework.
 */
import type { SessionView } from "../messages.js";
import { call, session } from "./api.js";
import { conformPane } from "./conform.js";
import { connectionPanel } from "./connection.js";
import { h } from "./dom.js";
import { methodForm } from "./forms.js";
import { framesPane } from "./frames.js";
import { CallView } from "./stream.js";

async function start(): Promise<void> {
  const app = document.getElementById("app")!;
  const view = await session();
  const callView = new CallView();
  const formSlot = h("div", { id: "form-slot" });
  const send = (method: string, params: unknown): void => {
    callView.begin(method);
    call(method, params, (event) => callView.event(event)).catch((error: unknown) =>
      callView.event({ type: "error", at: 0, error: { message: (error as Error).message } }),
    );
  };
  const choose = (method: string): void => {
    const chosen = view.methods.find((candidate) => candidate.method === method)!;
    formSlot.replaceChildren(methodForm(chosen, send).element);
    for (const tab of document.querySelectorAll<HTMLElement>("#methods button"))
      tab.classList.toggle("chosen", tab.dataset.method === method);
  };
  const conform = conformPane();
  const framesSoFar = framesPane(view.frames);
  app.replaceChildren(
    h("header", null, h("h1", null, "rcp-gen inspect"), h("span", { class: "muted" }, view.target)),
    h(
      "div",
      { class: "layout" },
      h("aside", null, connectionPanel(view), conform.element),
      h("div", { class: "work" }, methodTabs(view, choose), formSlot, callView.element),
      framesSoFar.element,
    ),
  );
  const first =
    view.methods.find((method) => method.advertised && method.method === "retrieve") ??
    view.methods.find((method) => method.advertised);
  if (first !== undefined) choose(first.method);
  // What a screenshot in CI waits for: the forms, the frames so far and the last report drawn.
  await Promise.all([framesSoFar.shown, conform.loaded]);
  document.body.dataset.ready = "true";
}

/** The advertised methods as tabs; the others listed apart, as the engine would refuse them (-32003). */
function methodTabs(view: SessionView, choose: (method: string) => void): HTMLElement {
  const tab = (method: string) => {
    const button = h("button", { type: "button", "data-method": method }, method);
    button.addEventListener("click", () => choose(method));
    return button;
  };
  const absent = view.methods.filter((method) => !method.advertised).map((method) => method.method);
  return h(
    "nav",
    { id: "methods", class: "panel" },
    h(
      "div",
      { class: "tabs" },
      ...view.methods.filter((method) => method.advertised).map((method) => tab(method.method)),
    ),
    absent.length === 0 ? null : h("p", { class: "muted" }, `Not advertised: ${absent.join(", ")}`),
  );
}

start().catch((error: unknown) => {
  document
    .getElementById("app")!
    .replaceChildren(h("p", { class: "error", id: "fatal" }, String((error as Error).message)));
});
