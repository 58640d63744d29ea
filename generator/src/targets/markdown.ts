/**
 * The Markdown reference: docs/README.md (every method, notification and error code) and one
 * page per method, docs/<method file>.md: what gates it (capability, before-initialize),
 * whether a client may repeat it, whether it streams and the shape of its progress `partial`, its option gates, clamps and
 * rules, the errors the runtime answers for it, tables of its params and result, and an
 * example request and response when the run has examples (an examples folder, or the
 * schema's own `examples`).
 */
import { isJsonObject } from "../load/json-pointer.js";
import type { RcpMethod, RcpModel, Shape } from "../model/model.js";
import type { GeneratedFile } from "../plugin/generated-file.js";
import type { PluginContext } from "../plugin/plugin.js";
import { targetCode } from "./builtin.js";
import { examplesOf, type ExampleSet } from "./shared/examples.js";
import { methodErrors } from "./shared/method-errors.js";
import { dereference, resolveRef, SchemaNames, type Location } from "./shared/schema-names.js";

export const markdownTarget = targetCode({
  generate({ model, newFile, examples }: PluginContext) {
    const names = new SchemaNames(model);
    const pages = model.methods.map((method) => methodPage(model, method, names, examples, newFile(pagePath(method))));
    return [indexPage(model, newFile("docs/README.md")), ...pages];
  },
});

/** `methods/index-add.json` -> `docs/index-add.md`. */
function pagePath(method: RcpMethod): string {
  return `docs/${method.file.replace(/^methods\//, "").replace(/\.json$/, "")}.md`;
}

const code = (text: string) => `\`${text}\``;
/** Text for a table cell: one line, pipes escaped. */
const cell = (text: string) => text.replaceAll("\n", " ").replaceAll("|", "\\|");
const yesNo = (value: boolean) => (value ? "yes" : "no");

function indexPage(model: RcpModel, file: GeneratedFile): GeneratedFile {
  file.print(`# ${model.title} reference`);
  file.print("");
  file.print(
    `Every method of ${model.title}, one page each, then its notifications and error codes. Generated from the schema folder: edit the schema, not these pages.`,
  );
  file.print("");
  file.print("## Methods");
  file.print("");
  file.print("| method | capability | streaming | what it does |");
  file.print("| --- | --- | --- | --- |");
  for (const method of model.methods)
    file.print(
      `| [${code(method.method)}](${pagePath(method).slice("docs/".length)}) | ${method.capability === null ? "none" : code(method.capability)} | ${yesNo(method.streaming)} | ${cell(method.description ?? "")} |`,
    );
  file.print("");
  file.print("## Notifications");
  file.print("");
  file.print("| notification | sent by | what it carries |");
  file.print("| --- | --- | --- |");
  for (const notification of model.notifications)
    file.print(
      `| ${code(notification.method)} | ${notification.direction} | ${cell(notification.description ?? "")} |`,
    );
  file.print("");
  file.print("## Errors");
  file.print("");
  file.print("| code | symbol | retryable | meaning |");
  file.print("| --- | --- | --- | --- |");
  for (const error of model.errors)
    file.print(`| ${error.code} | ${error.symbol} | ${error.retryable} | ${cell(error.message)} |`);
  return file;
}

/** When a client may repeat a call (x-rcp `idempotent`, §7.10): what a retry policy reads. */
function repeatable({ idempotent }: RcpMethod): string {
  if (idempotent === undefined) return "no";
  if (idempotent === true) return "yes";
  const condition = ({ each, present }: { each?: string; present: string }) =>
    each === undefined ? `${code(present)} is present` : `every item of ${code(each)} has ${code(present)}`;
  return `when ${idempotent.when.map(condition).join(", or ")}`;
}

function methodPage(
  model: RcpModel,
  method: RcpMethod,
  names: SchemaNames,
  examples: ExampleSet | undefined,
  file: GeneratedFile,
): GeneratedFile {
  const section = (title: string) => {
    file.print("");
    file.print(`## ${title}`);
    file.print("");
  };
  file.print(`# ${code(method.method)}`);
  file.print("");
  if (method.description !== undefined) {
    file.print(method.description);
    file.print("");
  }
  file.print("| | |");
  file.print("| --- | --- |");
  file.print(
    `| capability | ${method.capability === null ? "none: every server answers it" : code(method.capability)}${method.requires === undefined ? "" : `, with ${code(method.requires)}`} |`,
  );
  file.print(`| before \`initialize\` | ${yesNo(method.beforeInitialize)} |`);
  if (method.lifecycle !== undefined) file.print("| answered by | the runtime's session itself (no handler) |");
  file.print(
    `| streaming | ${method.streaming ? `yes: progress notifications${method.partial ? `, each \`partial\` a ${code(method.partial.typeName)}` : ""}` : "no"} |`,
  );
  if (method.pagination !== undefined)
    file.print(
      `| pagination | the next page's cursor is \`result.${method.pagination.nextCursor}\`, sent back as \`${method.pagination.cursor}\` |`,
    );
  file.print(`| safe to repeat | ${repeatable(method)} |`);
  if (method.spec !== undefined) file.print(`| spec | ${method.spec} |`);
  file.print(`| schema | ${code(method.file)} |`);

  section(`Params: ${code(method.params.typeName)}`);
  printMembers(model, names, file, method.params);
  const aliases = Object.entries(method.aliases);
  if (aliases.length > 0) file.print("");
  if (aliases.length > 0)
    file.print(
      `Also accepted: ${aliases.map(([alias, canonical]) => `${code(alias)} for ${code(canonical)}`).join(", ")}.`,
    );
  section(`Result: ${code(method.result.typeName)}`);
  printMembers(model, names, file, method.result);
  if (method.partial !== undefined) {
    section(`Progress partial: ${code(method.partial.typeName)}`);
    printMembers(model, names, file, method.partial);
  }
  if (method.gates.length > 0) {
    section("Option gates");
    file.print(
      "An option set to a value the server does not advertise is refused with -32005" +
        (method.strictParam === undefined ? "." : `, or falls back when \`${method.strictParam}\` is \`false\`.`),
    );
    file.print("");
    file.print("| param | allowed when | default |");
    file.print("| --- | --- | --- |");
    for (const gate of method.gates)
      file.print(
        `| ${code(gate.param)} | ${gate.in !== undefined ? `its value is in ${code(gate.in)}` : `${code(gate.requires ?? "")} is advertised`} | ${gate.default === undefined ? "" : cell(code(JSON.stringify(gate.default)))} |`,
      );
  }
  if (method.clamps.length > 0) {
    section("Clamps");
    file.print("A count above the advertised maximum is lowered to it, never refused.");
    file.print("");
    file.print("| param | at most |");
    file.print("| --- | --- |");
    for (const clamp of method.clamps) file.print(`| ${code(clamp.param)} | ${code(clamp.max)} |`);
  }
  if (method.rules.length > 0) {
    section("Rules");
    for (const rule of method.rules)
      file.print(
        rule.rule === "nonIncreasing"
          ? `- ${rule.params.map(code).join(" >= ")}, for those present${rule.spec === undefined ? "" : ` (${rule.spec})`}`
          : `- ${code(rule.param)} is a filter: its fields must be in ${code(rule.fields)}, its operators in ${code(rule.operators)}${rule.spec === undefined ? "" : ` (${rule.spec})`}`,
      );
  }
  const errors = methodErrors(model, method);
  if (errors.length > 0) {
    section("Errors");
    file.print(
      "What the runtime answers before the handler runs (or when the call is cut short); the handler may answer others of the error table.",
    );
    file.print("");
    file.print("| code | symbol | when |");
    file.print("| --- | --- | --- |");
    for (const { error, when } of errors) file.print(`| ${error.code} | ${error.symbol} | ${cell(when)} |`);
  }
  printExample(method, examples, file, section);
  return file;
}

function printExample(
  method: RcpMethod,
  examples: ExampleSet | undefined,
  file: GeneratedFile,
  section: (title: string) => void,
): void {
  const [request] = examplesOf(method.params, examples);
  const [response] = examplesOf(method.result, examples);
  if (request === undefined && response === undefined) return;
  section("Example");
  if (request !== undefined) {
    file.print(
      `Request${request.description === undefined ? "" : `: ${request.description}`}${request.spec === undefined ? "" : ` (${request.spec})`}`,
    );
    file.print("");
    file.print("```json");
    file.print(JSON.stringify({ jsonrpc: "2.0", id: 1, method: method.method, params: request.value }, null, 2));
    file.print("```");
  }
  if (response !== undefined) {
    file.print("");
    file.print(
      `Response${response.description === undefined ? "" : `: ${response.description}`}${response.spec === undefined ? "" : ` (${response.spec})`}`,
    );
    file.print("");
    file.print("```json");
    file.print(JSON.stringify({ jsonrpc: "2.0", id: 1, result: response.value }, null, 2));
    file.print("```");
  }
}

/** A table of an object shape's members, or a line saying what the shape is. */
function printMembers(model: RcpModel, names: SchemaNames, file: GeneratedFile, shape: Shape): void {
  const { at, schema } = dereference(model, { file: shape.file, pointer: shape.pointer });
  if (at.file !== shape.file || at.pointer !== shape.pointer) {
    file.print(`The same as ${code(names.nameOf(at))}:`);
    file.print("");
  }
  const properties = isJsonObject(schema) && isJsonObject(schema["properties"]) ? schema["properties"] : {};
  const required = isJsonObject(schema) && Array.isArray(schema["required"]) ? schema["required"] : [];
  const rows = Object.entries(properties);
  if (rows.length === 0) file.print("No members.");
  else {
    file.print("| name | type | required | description |");
    file.print("| --- | --- | --- | --- |");
    for (const [name, member] of rows) {
      const description = isJsonObject(member) && typeof member.description === "string" ? member.description : "";
      file.print(
        `| ${code(name)} | ${cell(typeLabel(model, names, at.file, member))} | ${yesNo(required.includes(name))} | ${cell(description)} |`,
      );
    }
  }
  const variants = isJsonObject(schema) ? (schema["oneOf"] ?? schema["anyOf"]) : undefined;
  if (Array.isArray(variants)) file.print("");
  if (Array.isArray(variants))
    file.print(`And one of: ${variants.map((variant) => typeLabel(model, names, at.file, variant)).join(", ")}.`);
}

/** A short type for a table: a referenced schema's name, `T[]`, enum values, or the JSON type. */
function typeLabel(model: RcpModel, names: SchemaNames, file: string, schema: unknown, depth = 0): string {
  if (schema === true) return "any";
  if (!isJsonObject(schema) || depth > 4) return "any";
  const ref = schema["$ref"];
  if (typeof ref === "string") return code(names.nameOf(resolveRef(model, file, ref) satisfies Location));
  if (Array.isArray(schema["enum"])) return schema["enum"].map((value) => code(JSON.stringify(value))).join(" or ");
  if (schema["const"] !== undefined) return code(JSON.stringify(schema["const"]));
  const variants = schema["oneOf"] ?? schema["anyOf"];
  if (Array.isArray(variants))
    return variants.map((variant) => typeLabel(model, names, file, variant, depth + 1)).join(" or ");
  const type = schema["type"];
  if (type === "array") return `${typeLabel(model, names, file, schema["items"], depth + 1)}[]`;
  if (Array.isArray(type)) return type.join(" or ");
  return typeof type === "string" ? type : "any";
}
