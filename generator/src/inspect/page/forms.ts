/**
 * One form per method, made from its params schema: required members marked, enums as
 * choices, defaults and examples as hints, nested objects as their own fieldsets, and anything
 * a form cannot say well (unions, recursion, `_meta`) as a JSON field. The form writes the raw
 * request beside it; the raw request is what is sent, checked on every keystroke by the
 * inspector's server with validateFrame against the protocol the engine is spoken with.
 */
import type { FrameVerdict, MethodView } from "../messages.js";
import { validate } from "./api.js";
import { h, plain, pretty } from "./dom.js";

type Schema = {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  "x-inspector-recursive"?: boolean;
};

/** Reads a field's value; undefined leaves the member out. */
type Reader = () => unknown;

export interface MethodForm {
  readonly element: HTMLElement;
}

export function methodForm(method: MethodView, onSend: (method: string, params: unknown) => void): MethodForm {
  const schema = (method.params ?? {}) as Schema;
  const raw = h("textarea", { id: "raw", class: "raw", spellcheck: "false", "aria-label": "raw request" });
  const verdictLine = h("div", { id: "raw-verdict", class: "verdict" });
  const send = h("button", { id: "send", type: "button", class: "primary" }, "Send");
  let nextId = 1;
  let checking = 0;

  const fields = h("div", { class: "fields" });
  const read = objectFields(fields, schema, "", () => writeRaw());
  const writeRaw = (): void => {
    const params = read() ?? {};
    raw.value = pretty({ jsonrpc: "2.0", id: nextId, method: method.method, params });
    void check();
  };
  const show = (verdict: FrameVerdict): void => {
    verdictLine.replaceChildren(
      verdict.ok
        ? h("span", { class: "ok" }, `✓ a valid ${verdict.kind ?? "frame"}`)
        : h(
            "span",
            { class: "bad" },
            "✗ invalid: ",
            h("ul", null, ...verdict.problems.map((p) => h("li", null, p.message))),
          ),
    );
    verdictLine.dataset.ok = String(verdict.ok);
    send.textContent = verdict.ok ? "Send" : "Send anyway";
  };
  const check = async (): Promise<void> => {
    const mine = ++checking;
    const verdict = await validate(raw.value);
    if (mine === checking) show(verdict);
  };
  raw.addEventListener("input", () => void check());
  send.addEventListener("click", () => {
    let frame: { method?: unknown; params?: unknown };
    try {
      frame = JSON.parse(raw.value) as typeof frame;
    } catch {
      return show({ ok: false, problems: [{ path: "(frame)", message: "(frame): not JSON, nothing sent" }] });
    }
    onSend(typeof frame.method === "string" ? frame.method : method.method, frame.params ?? {});
    nextId++;
  });
  writeRaw();

  return {
    element: h(
      "section",
      { id: "call", class: "panel", "data-method": method.method },
      h("h2", null, method.method, method.spec === undefined ? "" : h("span", { class: "spec" }, ` ${method.spec}`)),
      method.description === undefined ? null : h("p", { class: "description" }, method.description),
      h(
        "div",
        { class: "form-and-raw" },
        h("form", { id: "params-form", autocomplete: "off" }, fields),
        h(
          "div",
          { class: "raw-pane" },
          h("label", { for: "raw" }, "Raw request (what is sent; the client numbers ids itself)"),
          raw,
          verdictLine,
          h("div", { class: "actions" }, send),
        ),
      ),
    ),
  };
}

/** The fields of an object schema into `container`; returns the reader of the whole object. */
function objectFields(container: HTMLElement, schema: Schema, path: string, changed: () => void): Reader {
  const readers: [string, Reader][] = [];
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {});
  // At the top, the optional members wait behind one summary line, so the form starts short.
  const optional = members.filter(([name]) => !required.has(name));
  const optionalBox =
    path === "" && optional.length > 0 && optional.length < members.length ? h("div", { class: "fields" }) : undefined;
  for (const [name, member] of [...members.filter(([name]) => required.has(name)), ...optional]) {
    const id = `field-${path}${name}`;
    const label = h(
      "label",
      { for: id },
      name,
      required.has(name) ? h("span", { class: "required", title: "required" }, " *") : "",
    );
    const hint = hintOf(member);
    const [input, reader] = fieldFor(member, id, `${path}${name}.`, name === "_meta", required.has(name), changed);
    (required.has(name) ? container : (optionalBox ?? container)).append(
      h(
        "div",
        { class: "field", "data-field": `${path}${name}` },
        label,
        input,
        member.description === undefined && hint === ""
          ? null
          : h("small", null, [member.description, hint].filter(Boolean).join(" ")),
      ),
    );
    readers.push([name, reader]);
  }
  if (optionalBox !== undefined)
    container.append(
      h("details", { id: "optional" }, h("summary", null, `Optional parameters (${optional.length})`), optionalBox),
    );
  return () => {
    const value: Record<string, unknown> = {};
    for (const [name, reader] of readers) {
      const member = reader();
      if (member !== undefined) value[name] = member;
    }
    return Object.keys(value).length === 0 && path !== "" ? undefined : value;
  };
}

function hintOf(schema: Schema): string {
  const parts: string[] = [];
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.examples?.[0] !== undefined) parts.push(`e.g. ${JSON.stringify(schema.examples[0])}`);
  return parts.join("; ");
}

const typeOf = (schema: Schema): string | undefined => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

function fieldFor(
  schema: Schema,
  id: string,
  path: string,
  asJson: boolean,
  required: boolean,
  changed: () => void,
): [HTMLElement, Reader] {
  const listen = <E extends HTMLElement>(element: E): E => {
    element.addEventListener("input", changed);
    element.addEventListener("change", changed);
    return element;
  };
  const type = typeOf(schema);
  const choices = schema.enum ?? schema.oneOf?.map((option) => option.const).filter((value) => value !== undefined);
  const start = required ? (schema.examples?.[0] ?? schema.default) : undefined;
  if (
    !asJson &&
    choices !== undefined &&
    choices.length > 0 &&
    choices.length === (schema.enum ?? schema.oneOf)!.length
  ) {
    const select = listen(
      h(
        "select",
        { id, name: id },
        h("option", { value: "" }, required ? "(choose)" : "(not set)"),
        ...choices.map((choice) => h("option", { value: JSON.stringify(choice) }, String(choice))),
      ),
    );
    if (start !== undefined) select.value = JSON.stringify(start);
    return [select, () => (select.value === "" ? undefined : (JSON.parse(select.value) as unknown))];
  }
  if (!asJson && (type === "integer" || type === "number")) {
    const input = listen(h("input", { id, name: id, type: "number", step: type === "integer" ? "1" : "any" }));
    if (schema.minimum !== undefined) input.min = String(schema.minimum);
    if (schema.maximum !== undefined) input.max = String(schema.maximum);
    if (start !== undefined) input.value = plain(start);
    return [input, () => (input.value === "" ? undefined : Number(input.value))];
  }
  if (!asJson && type === "boolean") {
    const select = listen(
      h(
        "select",
        { id, name: id },
        h("option", { value: "" }, "(not set)"),
        h("option", null, "true"),
        h("option", null, "false"),
      ),
    );
    return [select, () => (select.value === "" ? undefined : select.value === "true")];
  }
  const textual =
    type === "string" || (schema.anyOf ?? schema.oneOf ?? []).some((option) => typeOf(option) === "string");
  if (!asJson && textual) {
    const input = listen(h("input", { id, name: id, type: "text" }));
    if (typeof start === "string") input.value = start;
    // A union with a string: text is the string, text that is JSON (an object, a list) is that.
    return [
      input,
      () =>
        input.value === ""
          ? undefined
          : type === "string" || !/^\s*[[{]/.test(input.value)
            ? input.value
            : jsonOrText(input.value),
    ];
  }
  if (!asJson && type === "object" && schema.properties !== undefined && !schema["x-inspector-recursive"]) {
    const inner = h("div", { class: "fields nested" });
    const reader = objectFields(inner, schema, path, changed);
    return [h("details", { id }, h("summary", null, "fields"), inner), reader];
  }
  // Anything else is written as JSON (arrays, unions of objects, recursive filters, _meta).
  const area = listen(
    h("textarea", { id, name: id, class: "json", rows: "2", spellcheck: "false", placeholder: "JSON" }),
  );
  if (start !== undefined) area.value = JSON.stringify(start);
  return [area, () => (area.value.trim() === "" ? undefined : jsonOrText(area.value))];
}

/** The JSON `text` says; text that is not JSON is kept as it is, for the verdict to flag. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
