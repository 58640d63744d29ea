/**
 * The connection panel: who the engine is, the level it declares (§14), and its capabilities
 * (§6) as tables a person reads: each capability advertised or not with its settings (maxima
 * apart), then the filter's fields and operators (§8).
 */
import type { SessionView } from "../messages.js";
import { h } from "./dom.js";

type Record_ = Record<string, unknown>;

export function connectionPanel(view: SessionView): HTMLElement {
  const server = view.server === undefined ? "(no server info)" : `${view.server.name} ${view.server.version}`;
  return h(
    "section",
    { id: "connection", class: "panel" },
    h("h2", null, "Connection"),
    h(
      "dl",
      { class: "facts" },
      h("dt", null, "Server"),
      h("dd", { id: "server-info" }, server),
      h("dt", null, "Conformance"),
      h("dd", { id: "conformance", class: "level" }, view.conformance ?? "not declared"),
      h("dt", null, "Protocol"),
      h("dd", null, view.protocolVersion === undefined ? "?" : `RCP/${view.protocolVersion}`),
      h("dt", null, "Transport"),
      h("dd", null, `${view.transport}: `, h("code", null, view.target)),
    ),
    h("h3", null, "Capabilities"),
    capabilityTable(view),
    filterTables(view.capabilities.filter),
  );
}

function capabilityTable(view: SessionView): HTMLTableElement {
  const known = new Set(view.methods.map((method) => method.capability).filter((key) => key !== null));
  const keys = [...new Set([...Object.keys(view.capabilities), ...known])].sort();
  const body = h("tbody");
  for (const key of keys) {
    const value = view.capabilities[key];
    const advertised = value !== undefined && value !== null && value !== false;
    const settings = typeof value === "object" && value !== null ? (value as Record_) : {};
    const maxima = Object.entries(settings).filter(([name, setting]) => isLimit(name) && typeof setting === "number");
    const rest = Object.entries(settings).filter(([name]) => key !== "filter" && !maxima.some(([max]) => max === name));
    body.append(
      h(
        "tr",
        { class: advertised ? "advertised" : "absent", "data-capability": key },
        h("th", { scope: "row" }, key),
        h("td", null, advertised ? "yes" : "no"),
        h(
          "td",
          null,
          ...maxima.map(([name, max]) => h("span", { class: "chip max" }, `${name} ${String(max)}`)),
          key === "filter" && advertised ? "see below" : "",
          ...rest.map(([name, setting]) => setting_(name, setting)),
        ),
      ),
    );
  }
  return h(
    "table",
    { id: "capabilities", class: "grid" },
    h(
      "thead",
      null,
      h("tr", null, h("th", null, "capability"), h("th", null, "advertised"), h("th", null, "maxima and settings")),
    ),
    body,
  );
}

const isLimit = (name: string): boolean => /^max|Limit$|^dimension$/.test(name);

function setting_(name: string, value: unknown): HTMLElement {
  if (Array.isArray(value)) return h("span", { class: "chip" }, `${name}: ${value.join(", ")}`);
  if (typeof value === "boolean") return h("span", { class: value ? "chip on" : "chip off" }, name);
  if (typeof value === "object" && value !== null)
    return h("span", { class: "chip" }, `${name}: ${JSON.stringify(value)}`);
  return h("span", { class: "chip" }, `${name}: ${String(value)}`);
}

function filterTables(filter: unknown): HTMLElement | null {
  if (typeof filter !== "object" || filter === null) return null;
  const { fields, operators } = filter as { fields?: Record_; operators?: unknown };
  const rows = Object.entries(fields ?? {}).map(([name, type]) =>
    h(
      "tr",
      null,
      h("th", { scope: "row" }, name),
      h("td", null, typeof type === "string" ? type : JSON.stringify(type)),
    ),
  );
  return h(
    "div",
    { id: "filter" },
    h("h3", null, "Filter (§8)"),
    h(
      "p",
      null,
      "Operators: ",
      ...(Array.isArray(operators) ? operators : []).map((operator) =>
        h("span", { class: "chip op" }, String(operator)),
      ),
    ),
    h(
      "table",
      { class: "grid" },
      h("thead", null, h("tr", null, h("th", null, "field"), h("th", null, "type"))),
      h("tbody", null, ...rows),
    ),
  );
}
