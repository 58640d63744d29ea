/**
 * The command-line flags of a method's params, derived from its params schema so a method
 * added to the schema has its flags with no code: `--query compost --k 3 --filter.field tag`.
 * Scalars are typed (numbers, booleans, enums as choices), lists of scalars repeat, members
 * of objects are dotted (two levels deep); anything else, such as a member of several types,
 * takes JSON or, when the text is not JSON, the text (`--filter.value '[1,2]'`, `--query compost`).
 */
import { isJsonObject } from "../load/json-pointer.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import { inlineSchema } from "../mock/inline-schema.js";

export interface ParamFlag {
  /** The dotted params path, which is also the flag's name. */
  readonly name: string;
  readonly type: "string" | "number" | "boolean" | "json";
  /** A list of values: the flag repeats. */
  readonly array: boolean;
  readonly choices?: readonly (string | number)[];
  readonly describe: string;
}

const MAX_DEPTH = 2;

export function paramFlags(folder: LoadedSchemaFolder, method: string): ParamFlag[] {
  const file = folder.methods.find((entry) => entry.method === method)?.file;
  if (file === undefined) return [];
  const flags: ParamFlag[] = [];
  collect(inlineSchema(folder, `${file}#/$defs/params`, 4), "", 0, flags);
  return flags;
}

function collect(schema: unknown, prefix: string, depth: number, flags: ParamFlag[]): void {
  const required = new Set(isJsonObject(schema) && Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [key, member] of Object.entries(propertiesOf(schema))) {
    if (key === "_meta") continue;
    const name = `${prefix}${key}`;
    const children = propertiesOf(member);
    // A member that may be a string (retrieve's query: text or Content blocks) takes the string.
    const textual = alternatives(member).some((branch) => typesOf(branch).includes("string"));
    if (Object.keys(children).length > 0 && depth < MAX_DEPTH && !textual) {
      collect({ ...(member as object), properties: children }, `${name}.`, depth + 1, flags);
      continue;
    }
    const description = isJsonObject(member) && typeof member.description === "string" ? member.description : "";
    flags.push({
      name,
      ...kindOf(member),
      describe: `${description}${required.has(key) && prefix === "" ? " (required)" : ""}`,
    });
  }
}

/** The members an object schema (or any of its alternatives) declares. */
function propertiesOf(schema: unknown): Record<string, unknown> {
  if (!isJsonObject(schema)) return {};
  const own = isJsonObject(schema.properties) ? schema.properties : {};
  const branches = [...asArray(schema.oneOf), ...asArray(schema.anyOf), ...asArray(schema.allOf)];
  return Object.assign({}, ...branches.map(propertiesOf), own) as Record<string, unknown>;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function kindOf(schema: unknown): Pick<ParamFlag, "type" | "array" | "choices"> {
  const branches = alternatives(schema);
  const types = new Set(branches.flatMap(typesOf));
  const values = branches.flatMap((branch): unknown[] =>
    Array.isArray(branch.enum) ? (branch.enum as unknown[]) : "const" in branch ? [branch.const] : [],
  );
  const choices = values.filter(
    (value): value is string | number => typeof value === "string" || typeof value === "number",
  );
  const withChoices = choices.length > 0 && choices.length === values.length && types.size <= 1 ? { choices } : {};
  if (types.size === 1 && types.has("string")) return { type: "string", array: false, ...withChoices };
  if (types.size === 1 && (types.has("integer") || types.has("number")))
    return { type: "number", array: false, ...withChoices };
  if (types.size === 1 && types.has("boolean")) return { type: "boolean", array: false };
  if (types.size === 1 && types.has("array")) {
    const items = branches.find((branch) => branch.items !== undefined)?.items;
    const item = kindOf(items);
    if (item.type !== "json" && !item.array) return { ...item, array: true };
  }
  return { type: "json", array: false };
}

function alternatives(schema: unknown): Record<string, unknown>[] {
  if (!isJsonObject(schema)) return [];
  const branches = [...asArray(schema.oneOf), ...asArray(schema.anyOf)];
  return branches.length === 0 ? [schema] : branches.flatMap(alternatives);
}

function typesOf(schema: Record<string, unknown>): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  return values.map((value) => (typeof value === "number" ? "number" : typeof value));
}
