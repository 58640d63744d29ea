/**
 * One form per method, made from its params schema: required members marked, enums as
 * choices, defaults and examples as hints, nested objects as their own fieldsets, and anything
 * a form cannot say well (unions, recursion, `_meta`) as a JSON field. The form writes the raw
 * request beside it, and an edited raw request fills the form back in; the raw request is what
 * is sent, checked on every keystroke by the inspector's server with validateFrame against the
 * protocol the engine is spoken with.
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

/** A field: `read` gives its value (undefined leaves the member out), `write` shows one (undefined clears it). */
interface Field {
  readonly read: () => unknown;
  readonly write: (value: unknown) => void;
}

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
  const form = objectFields(fields, schema, "", () => writeRaw());
  const writeRaw = (): void => {
    const params = form.read() ?? {};
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
  raw.addEventListener("input", () => {
    void check();
    // The raw request drives the form: its params, when it is JSON for this method, refill it.
    const frame = jsonOrText(raw.value) as { method?: unknown; params?: unknown } | null;
    if (typeof frame === "object" && frame !== null && frame.method === method.method) form.write(frame.params ?? {});
  });
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

/** The fields of an object schema into `container`; returns the field of the whole object. */
function objectFields(container: HTMLElement, schema: Schema, path: string, changed: () => void): Field {
  const members: [string, Field][] = [];
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {});
  // At the top, the optional members wait behind one summary line, so the form starts short.
  const optional = properties.filter(([name]) => !required.has(name));
  const optionalBox =
    path === "" && optional.length > 0 && optional.length < properties.length
      ? h("div", { class: "fields" })
      : undefined;
  for (const [name, member] of [...properties.filter(([name]) => required.has(name)), ...optional]) {
    const id = `field-${path}${name}`;
    const label = h(
      "label",
      { for: id },
      name,
      required.has(name) ? h("span", { class: "required", title: "required" }, " *") : "",
    );
    const hint = hintOf(member);
    const [input, field] = fieldFor(member, id, `${path}${name}.`, name === "_meta", required.has(name), changed);
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
    members.push([name, field]);
  }
  const folded =
    optionalBox === undefined
      ? undefined
      : h("details", { id: "optional" }, h("summary", null, `Optional parameters (${optional.length})`), optionalBox);
  if (folded !== undefined) container.append(folded);
  return {
    read: () => {
      const value: Record<string, unknown> = {};
      for (const [name, field] of members) {
        const member = field.read();
        if (member !== undefined) value[name] = member;
      }
      return Object.keys(value).length === 0 && path !== "" ? undefined : value;
    },
    write: (value) => {
      const object = isObject(value) ? value : {};
      for (const [name, field] of members) field.write(object[name]);
      // An optional member the raw request sets is shown, not left folded away.
      if (folded !== undefined && optional.some(([name]) => object[name] !== undefined)) folded.open = true;
    },
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

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
): [HTMLElement, Field] {
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
    const write = (value: unknown): void => {
      const wanted = value === undefined ? "" : JSON.stringify(value);
      // A value that is not a choice leaves the field unset (the raw request still holds it).
      select.value = [...select.options].some((option) => option.value === wanted) ? wanted : "";
    };
    write(start);
    return [select, { read: () => (select.value === "" ? undefined : (JSON.parse(select.value) as unknown)), write }];
  }
  if (!asJson && (type === "integer" || type === "number")) {
    const input = listen(h("input", { id, name: id, type: "number", step: type === "integer" ? "1" : "any" }));
    if (schema.minimum !== undefined) input.min = String(schema.minimum);
    if (schema.maximum !== undefined) input.max = String(schema.maximum);
    const write = (value: unknown): void => void (input.value = value === undefined ? "" : plain(value));
    write(start);
    return [input, { read: () => (input.value === "" ? undefined : Number(input.value)), write }];
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
    return [
      select,
      {
        read: () => (select.value === "" ? undefined : select.value === "true"),
        write: (value) => void (select.value = typeof value === "boolean" ? String(value) : ""),
      },
    ];
  }
  const textual =
    type === "string" || (schema.anyOf ?? schema.oneOf ?? []).some((option) => typeOf(option) === "string");
  if (!asJson && textual) {
    const input = listen(h("input", { id, name: id, type: "text" }));
    if (typeof start === "string") input.value = start;
    // A union with a string: text is the string, text that is JSON (an object, a list) is that.
    return [
      input,
      {
        read: () =>
          input.value === ""
            ? undefined
            : type === "string" || !/^\s*[[{]/.test(input.value)
              ? input.value
              : jsonOrText(input.value),
        write: (value) =>
          void (input.value = value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value)),
      },
    ];
  }
  if (!asJson && type === "object" && schema.properties !== undefined && !schema["x-inspector-recursive"]) {
    const inner = h("div", { class: "fields nested" });
    const field = objectFields(inner, schema, path, changed);
    const details = h("details", { id }, h("summary", null, "fields"), inner);
    return [
      details,
      {
        read: () => field.read(),
        write: (value) => {
          field.write(value);
          if (value !== undefined) details.open = true;
        },
      },
    ];
  }
  // Anything else is written as JSON (arrays, unions of objects, recursive filters, _meta).
  const area = listen(
    h("textarea", { id, name: id, class: "json", rows: "2", spellcheck: "false", placeholder: "JSON" }),
  );
  const write = (value: unknown): void => void (area.value = value === undefined ? "" : JSON.stringify(value));
  write(start);
  return [area, { read: () => (area.value.trim() === "" ? undefined : jsonOrText(area.value)), write }];
}

/** The JSON `text` says; text that is not JSON is kept as it is, for the verdict to flag. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
