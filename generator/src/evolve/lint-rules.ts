/**
 * The rules of `rcp-gen lint`, each with an id a config can set to off, warn or error
 * (docs/schema-evolution.md explains each). They read the folder as the loader gives it: what
 * the loader already refuses (unknown keywords, additionalProperties: false, a capability key
 * capabilities.json does not declare) never reaches them.
 */
import { appendPointer, isJsonObject, readPointer } from "../load/json-pointer.js";
import { schemaIdBase, type LoadedSchemaFolder } from "../load/loader.js";
import { compileRef } from "../load/schema-ajv.js";
import { walkSchema } from "../load/schema-walk.js";
import { capabilityPaths } from "../load/capability-paths.js";

export interface LintFinding {
  readonly rule: LintRuleId;
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
}

/** What a rule reads: the folder, and the RCP/1 folder rcp-gen ships (which names are the protocol's own). */
export interface LintInput {
  readonly folder: LoadedSchemaFolder;
  readonly protocol: LoadedSchemaFolder;
}

type Rule = { readonly summary: string; readonly check: (input: LintInput) => LintFinding[] };

export const lintRules = {
  described: {
    summary: "every method, notification, shared type, $defs entry and declared member has a description",
    check: described,
  },
  "vendor-prefix": {
    summary: "methods, notifications and capabilities that RCP/1 does not define are x- prefixed (§6.2)",
    check: vendorPrefix,
  },
  "streaming-partial": {
    summary: "a streaming method declares the shape of its progress partials ($defs/partial)",
    check: streamingPartial,
  },
  "gate-capability": {
    summary:
      "every capability path a method names (capability, requires, gates, clamps, rules) exists in capabilities.json",
    check: gateCapability,
  },
  "examples-valid": {
    summary: "every example in the folder validates against the schema it illustrates",
    check: examplesValid,
  },
  naming: {
    summary: "files, titles, members and definitions are named as the folder names them",
    check: naming,
  },
  "open-objects": {
    summary: "no protocol object is closed another way than additionalProperties: false (§4.6)",
    check: openObjects,
  },
} as const satisfies Record<string, Rule>;

export type LintRuleId = keyof typeof lintRules;
export const lintRuleIds = Object.keys(lintRules) as LintRuleId[];

/** Every schema node of every file with its pointer, definitions included. */
function eachSchema(
  folder: LoadedSchemaFolder,
  visit: (file: string, schema: Record<string, unknown>, pointer: string) => void,
): void {
  for (const [file, document] of folder.files)
    walkSchema(document, (schema, pointer) => {
      if (isJsonObject(schema)) visit(file, schema, pointer);
    });
}

// A member narrowed inside if/then/else or a combinator branch is described where it is declared.
const refinement = /\/(if|then|else|not|(oneOf|anyOf|allOf)\/\d+)\/properties\/[^/]+$/;

function described({ folder }: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  eachSchema(folder, (file, schema, pointer) => {
    const needs = pointer === "" || /\/\$defs\/[^/]+$/.test(pointer) || /\/properties\/[^/]+$/.test(pointer);
    if (!needs || refinement.test(pointer)) return;
    if (typeof schema["description"] === "string" && schema["description"].trim() !== "") return;
    const what = pointer === "" ? "the file" : pointer.includes("/properties/") ? "the member" : "the definition";
    found.push({ rule: "described", file, pointer, message: `${what} has no description` });
  });
  return found;
}

function vendorPrefix({ folder, protocol }: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  const own = new Set([...protocol.methods, ...protocol.notifications].map((entry) => entry.method));
  for (const entry of [...folder.methods, ...folder.notifications])
    if (!own.has(entry.method) && !entry.method.startsWith("x-"))
      found.push({
        rule: "vendor-prefix",
        file: entry.file,
        pointer: "/x-rcp/method",
        message: `${entry.method} is not an RCP/1 name: a vendor's is x-<vendor>/<name> (§6.2)`,
      });
  for (const side of ["serverCapabilities", "clientCapabilities"] as const) {
    const known = Object.keys(propertiesOf(protocol.capabilities.$defs[side]));
    for (const key of Object.keys(propertiesOf(folder.capabilities.$defs[side])))
      if (!known.includes(key) && !key.startsWith("x-"))
        found.push({
          rule: "vendor-prefix",
          file: "capabilities.json",
          pointer: appendPointer(`/$defs/${side}/properties`, key),
          message: `${key} is not an RCP/1 capability: a vendor's is x-<vendor> (§6.2)`,
        });
  }
  return found;
}

function streamingPartial({ folder }: LintInput): LintFinding[] {
  return folder.methods
    .filter((method) => method.annotation.streaming === true && method.document.$defs.partial === undefined)
    .map((method) => ({
      rule: "streaming-partial" as const,
      file: method.file,
      pointer: "/x-rcp/streaming",
      message: `${method.method} streams but declares no $defs/partial, so its progress partials are untyped`,
    }));
}

/** The loader checks a path's first key; this follows every key through the capability's schema. */
function gateCapability({ folder }: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  const server = { file: "capabilities.json", pointer: "/$defs/serverCapabilities" };
  for (const method of folder.methods)
    for (const { pointer, path } of capabilityPaths(method.annotation)) {
      let at: { file: string; pointer: string } | undefined = server;
      for (const key of path.split(".")) {
        const schema: Record<string, unknown> = resolved(folder, at);
        // A vendor capability's object that declares no members (`x-acme: {type: object}`) is the vendor's to fill.
        if (schema["properties"] === undefined && schema["patternProperties"] === undefined) break;
        const declared = propertiesOf(schema);
        const pattern = Object.keys(propertiesOf({ properties: schema["patternProperties"] })).find((each) =>
          new RegExp(each, "u").test(key),
        );
        if (Object.hasOwn(declared, key))
          at = { file: at.file, pointer: appendPointer(appendPointer(at.pointer, "properties"), key) };
        else if (pattern !== undefined)
          at = { file: at.file, pointer: appendPointer(appendPointer(at.pointer, "patternProperties"), pattern) };
        else {
          found.push({
            rule: "gate-capability",
            file: method.file,
            pointer,
            message: `"${path}": the capability declares no "${key}"`,
          });
          break;
        }
        at = resolvedPlace(folder, at);
      }
    }
  return found;
}

function examplesValid({ folder }: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  eachSchema(folder, (file, schema, pointer) => {
    const examples = schema["examples"];
    if (!Array.isArray(examples)) return;
    const validate = compileRef(folder, pointer === "" ? file : `${file}#${pointer}`);
    examples.forEach((example, index) => {
      if (validate(example)) return;
      const issue = validate.errors?.[0];
      found.push({
        rule: "examples-valid",
        file,
        pointer: appendPointer(appendPointer(pointer, "examples"), index),
        message: `example ${index} is invalid: ${issue?.instancePath || "(root)"} ${issue?.message ?? ""}`.trim(),
      });
    });
  });
  return found;
}

const camel = /^[a-z][A-Za-z0-9]*$/;
const pascal = /^[A-Z][A-Za-z0-9]*$/;
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();

/** Where a method's file belongs: `methods/<wire name with / as ->.json`. */
export const methodFileOf = (method: string) => `methods/${method.replaceAll("/", "-")}.json`;

function naming({ folder }: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  const add = (file: string, pointer: string, message: string) =>
    found.push({ rule: "naming", file, pointer, message });
  const prefix = folder.protocol["x-rcp"].notificationPrefix;
  for (const method of folder.methods) {
    const expected = methodFileOf(method.method);
    if (method.file !== expected) add(method.file, "/x-rcp/method", `method ${method.method} belongs in ${expected}`);
  }
  for (const notification of folder.notifications) {
    const name = notification.method.startsWith(prefix)
      ? notification.method.slice(prefix.length)
      : notification.method;
    const expected = `notifications/${name.replaceAll("/", "-")}.json`;
    if (notification.file !== expected)
      add(notification.file, "/x-rcp/method", `notification ${notification.method} belongs in ${expected}`);
  }
  for (const type of folder.types) {
    if (!pascal.test(type.document.title))
      add(type.file, "/title", `type name ${type.document.title} is not PascalCase`);
    else if (type.file !== `types/${kebab(type.document.title)}.json`)
      add(type.file, "/title", `type ${type.document.title} belongs in types/${kebab(type.document.title)}.json`);
  }
  eachSchema(folder, (file, schema, pointer) => {
    for (const name of Object.keys(propertiesOf(schema)))
      if (!camel.test(name) && name !== "_meta" && !name.startsWith("x-"))
        add(
          file,
          appendPointer(appendPointer(pointer, "properties"), name),
          `member ${name} is not camelCase (nor _meta, nor x-)`,
        );
    if (pointer === "")
      for (const name of Object.keys(propertiesOf({ properties: schema["$defs"] })))
        if (!camel.test(name)) add(file, appendPointer("/$defs", name), `definition ${name} is not camelCase`);
  });
  return found;
}

/** Closed without `false`: a value schema that accepts nothing, or member names limited by propertyNames. */
function openObjects({ folder }: LintInput): LintFinding[] {
  const found: LintFinding[] = [];
  const acceptsNothing = (value: unknown) =>
    isJsonObject(value) &&
    (value["not"] === true || (isJsonObject(value["not"]) && Object.keys(value["not"]).length === 0));
  eachSchema(folder, (file, schema, pointer) => {
    for (const keyword of ["additionalProperties", "unevaluatedProperties"])
      if (acceptsNothing(schema[keyword]))
        found.push({
          rule: "open-objects",
          file,
          pointer: appendPointer(pointer, keyword),
          message: `${keyword} accepts nothing, which closes the object; receivers must ignore unknown members (§4.6)`,
        });
    const names = schema["propertyNames"];
    if (isJsonObject(names) && (names["enum"] !== undefined || names["const"] !== undefined))
      found.push({
        rule: "open-objects",
        file,
        pointer: appendPointer(pointer, "propertyNames"),
        message: "propertyNames lists the only member names allowed, which closes the object (§4.6)",
      });
  });
  return found;
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  const properties = isJsonObject(schema) ? schema["properties"] : undefined;
  return isJsonObject(properties) ? properties : {};
}

/** Follows `$ref`s from a place to the schema they end at. */
function resolvedPlace(
  folder: LoadedSchemaFolder,
  place: { file: string; pointer: string },
): { file: string; pointer: string } {
  let current = place;
  for (let hops = 0; hops < 32; hops += 1) {
    const node = readPointer(folder.files.get(current.file), current.pointer);
    const ref = isJsonObject(node) ? node["$ref"] : undefined;
    if (typeof ref !== "string") return current;
    const url = new URL(ref, folder.idOf(current.file));
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    current = { file: url.href.slice(schemaIdBase.length), pointer: fragment };
  }
  return current;
}

function resolved(folder: LoadedSchemaFolder, place: { file: string; pointer: string }): Record<string, unknown> {
  const at = resolvedPlace(folder, place);
  const node = readPointer(folder.files.get(at.file), at.pointer);
  return isJsonObject(node) ? node : {};
}
