/**
 * Valid params built from a method's schema and what the server advertised: required
 * members sampled from their schemas (the first alternative, the first enum value, a small
 * count, the probe query for strings) or, where the method has a valid example (the examples
 * folder's, else the schema's own `examples`), taken from it; then every option gate
 * satisfied from the advertised metadata (`graph.op` from `graph.ops`). The result is checked
 * against the params schema, so a check only ever sends params the schema says are valid.
 */
import type { MethodDescriptor, ProtocolDescriptor } from "@rcp-gen/runtime";
import { examplesOf, type ExampleSet } from "../targets/shared/examples.js";
import { deletePath, getPath, setPath } from "@rcp-gen/runtime/testing";
import { readPointer } from "../load/json-pointer.js";
import { schemaIdBase, type LoadedSchemaFolder } from "../load/loader.js";
import { truthy } from "./advertised.js";
import type { ProbeQuery } from "./probe-query.js";

type Json = Record<string, unknown>;

interface Located {
  readonly file: string;
  readonly pointer: string;
  readonly schema: unknown;
}

const MAX_DEPTH = 12;

export class ParamsSampler {
  constructor(
    private readonly folder: LoadedSchemaFolder,
    private readonly protocol: ProtocolDescriptor,
    private readonly capabilities: Readonly<Json>,
    private readonly query: ProbeQuery,
    private readonly examples: ExampleSet | undefined,
  ) {}

  /** The text of sampled strings: the probe query. */
  private get probeText(): string {
    return this.query.text;
  }

  /** Valid params for `method`, or why none could be built; `gated: false` skips the advertised metadata. */
  validParams(method: string, options: { gated?: boolean } = {}): { params: Json } | { reason: string } {
    const descriptor = this.protocol.methods[method];
    const file = this.fileOf(method);
    if (descriptor === undefined || file === undefined) return { reason: `${method} is not in the schema` };
    const params = this.sample(this.locate(file, "/$defs/params")) as Json | undefined;
    if (params === undefined || typeof params !== "object")
      return { reason: `no params could be sampled for ${method}` };
    const fromExample = this.withExampleValues(descriptor, file, params);
    if (fromExample !== undefined) {
      this.completeRequired(descriptor, method, fromExample);
      const finished = options.gated === false ? { params: fromExample } : this.finish(descriptor, method, fromExample);
      if ("params" in finished && descriptor.params(finished.params)) return finished;
    }
    this.completeRequired(descriptor, method, params);
    if (options.gated === false) return { params };
    return this.finish(descriptor, method, params);
  }

  /**
   * `params` with each required member the method's first valid example holds taken from it:
   * a value a person wrote (a document id) names what the engine holds, where a sampled one
   * names nothing. Only required members, so the probe stays the simplest valid call.
   */
  private withExampleValues(descriptor: MethodDescriptor, file: string, params: Json): Json | undefined {
    const schema = this.locate(file, "/$defs/params").schema as Json;
    const example = examplesOf({ ref: `${file}#/$defs/params`, schema }, this.examples)
      .map(({ value }) => value)
      .find((value): value is Json => typeof value === "object" && value !== null && descriptor.params(value));
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    if (example === undefined || !required.some((key) => key in example)) return undefined;
    const taken = structuredClone(params);
    // A query the user gave, or one the engine found hits for, beats the example's.
    const keepQuery = this.query.given || this.query.found === true;
    for (const key of required)
      if (key in example && !(key === "query" && keepQuery)) taken[key] = structuredClone(example[key]);
    return taken;
  }

  /**
   * Sets `path` (dotted) to `value` in a copy of `params`, building missing parents from
   * their schemas, then makes the params valid and gated again where it can.
   */
  withOption(method: string, params: Json, path: string, value: unknown): { params: Json } | { reason: string } {
    const descriptor = this.protocol.methods[method]!;
    const copy = structuredClone(params);
    const keys = path.split(".");
    let node = copy;
    for (let depth = 0; depth < keys.length - 1; depth++) {
      const key = keys[depth]!;
      if (typeof node[key] !== "object" || node[key] === null || Array.isArray(node[key])) {
        const sampled = this.sample(this.member(method, keys.slice(0, depth + 1)));
        node[key] = typeof sampled === "object" && sampled !== null && !Array.isArray(sampled) ? sampled : {};
      }
      node = node[key] as Json;
    }
    node[keys[keys.length - 1]!] = value;
    const finished = this.finish(descriptor, method, copy, path);
    // A gate on a parent (`rerank` needs retrieve.rerankBuiltin) may have removed the option.
    if ("params" in finished && JSON.stringify(getPath(finished.params, path)) !== JSON.stringify(value))
      return { reason: `${path} cannot be sent: a gate on its parent removed it` };
    return finished;
  }

  /** A sample of the schema of params member `path` (dotted), e.g. an `mmr` object. */
  sampleOption(method: string, path: string): unknown {
    return this.sample(this.member(method, path.split(".")));
  }

  /** The enum values the schema allows at params member `path`, when it lists them. */
  enumAt(method: string, path: string): unknown[] | undefined {
    const schema = this.dereference(this.member(method, path.split(".")))?.schema as Json | undefined;
    return Array.isArray(schema?.enum) ? schema.enum : undefined;
  }

  /** The schema of params member `keys`, following `$ref`s on the way. */
  private member(method: string, keys: readonly string[]): Located | undefined {
    const file = this.fileOf(method);
    let located: Located | undefined = file === undefined ? undefined : this.locate(file, "/$defs/params");
    for (const key of keys) {
      located = this.holderOf(this.dereference(located), key);
      if (located === undefined) return undefined;
      located = this.locate(located.file, `${located.pointer}/properties/${key}`);
    }
    return located;
  }

  /** The schema that declares member `key`: this one, or the first alternative that does (`object | false`). */
  private holderOf(located: Located | undefined, key: string): Located | undefined {
    const schema = located?.schema as Json | undefined;
    if (located === undefined || schema === undefined) return undefined;
    if ((schema.properties as Json | undefined)?.[key] !== undefined) return located;
    for (const keyword of ["oneOf", "anyOf", "allOf"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      for (let index = 0; index < branches.length; index++) {
        const branch = this.holderOf(
          this.dereference(this.locate(located.file, `${located.pointer}/${keyword}/${index}`)),
          key,
        );
        if (branch !== undefined) return branch;
      }
    }
    return undefined;
  }

  /** Follows `$ref`s until a schema without one. */
  private dereference(located: Located | undefined): Located | undefined {
    for (let hops = 0; located !== undefined && hops < MAX_DEPTH; hops++) {
      const ref = (located.schema as Json | undefined)?.$ref;
      if (typeof ref !== "string") return located;
      located = this.resolve(located, ref);
    }
    return undefined;
  }

  /**
   * Members a conditional of the schema requires (`if`/`else`, `anyOf` of `required`s) are
   * learned from the validator: each member it reports missing is sampled and added.
   */
  private completeRequired(descriptor: MethodDescriptor, method: string, params: Json): void {
    for (let round = 0; round < MAX_DEPTH && !descriptor.params(params); round++) {
      const missing = descriptor.params.errors?.find((issue) => issue.keyword === "required");
      if (missing === undefined) return;
      const parent = missing.instancePath.split("/").filter((token) => token !== "");
      const name = String(missing.params["missingProperty"]);
      const holder = getPath(params, parent.join(".")) ?? (parent.length === 0 ? params : undefined);
      if (typeof holder !== "object" || holder === null || name in holder) return;
      (holder as Json)[name] = this.sample(this.member(method, [...parent, name])) ?? this.probeText;
    }
  }

  /** Satisfies every gate the params can satisfy; `keep` is the option being tested, left as set. */
  private finish(
    descriptor: MethodDescriptor,
    method: string,
    params: Json,
    keep?: string,
  ): { params: Json } | { reason: string } {
    this.completeRequired(descriptor, method, params);
    for (const gate of descriptor.gates ?? []) {
      if (gate.param === keep) continue;
      const value = getPath(params, gate.param);
      if (value === undefined || value === false) continue;
      if (gate.requires !== undefined && !truthy(getPath(this.capabilities, gate.requires))) {
        deletePath(params, gate.param);
        continue;
      }
      if (gate.in !== undefined) {
        const allowed = getPath(this.capabilities, gate.in) ?? gate.default;
        const members = Array.isArray(allowed) ? allowed : [];
        if (members.includes(value)) continue;
        if (members.length === 0) return { reason: `${gate.param} is required but ${gate.in} advertises no value` };
        setPath(params, gate.param, members[0]);
      }
    }
    if (!descriptor.params(params)) {
      const issue = descriptor.params.errors?.[0];
      return {
        reason: `sampled params do not match the schema (${issue?.instancePath || "/"} ${issue?.message ?? ""})`,
      };
    }
    return { params };
  }

  private fileOf(method: string): string | undefined {
    return this.folder.methods.find((entry) => entry.method === method)?.file;
  }

  private locate(file: string, pointer: string): Located {
    return { file, pointer, schema: readPointer(this.folder.files.get(file), pointer) };
  }

  private resolve(from: Located, ref: string): Located | undefined {
    const url = new URL(ref, this.folder.idOf(from.file));
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    if (!url.href.startsWith(schemaIdBase)) return undefined;
    const file = url.href.slice(schemaIdBase.length);
    return this.folder.files.has(file) ? this.locate(file, fragment) : undefined;
  }

  /** One value the schema accepts, preferring the simplest: first alternative, first enum value. */
  private sample(located: Located | undefined, depth = 0): unknown {
    const schema = located?.schema as Json | undefined;
    if (located === undefined || schema === undefined || depth > MAX_DEPTH) return undefined;
    if (typeof schema.$ref === "string") return this.sample(this.resolve(located, schema.$ref), depth + 1);
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum[0];
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const branches = schema[keyword];
      if (!Array.isArray(branches)) continue;
      for (let index = 0; index < branches.length; index++) {
        const value = this.sample(
          { ...located, pointer: `${located.pointer}/${keyword}/${index}`, schema: branches[index] },
          depth + 1,
        );
        if (value !== undefined && value !== false && value !== null) return value;
      }
    }
    const types = Array.isArray(schema.type)
      ? schema.type
      : [schema.type ?? (schema.properties ? "object" : undefined)];
    switch (types.find((type) => type !== "null")) {
      case "object":
        return this.sampleObject(located, schema, depth);
      case "array": {
        const count = Math.max(1, Number(schema.minItems ?? 1));
        const item = this.sample({ ...located, pointer: `${located.pointer}/items`, schema: schema.items }, depth + 1);
        return Array.from({ length: count }, () => structuredClone(item ?? this.probeText));
      }
      case "string":
        return this.probeText.padEnd(Number(schema.minLength ?? 0), ".");
      case "integer":
        return within(3, schema);
      case "number":
        return within(0.5, schema);
      case "boolean":
        return true;
      default:
        return undefined;
    }
  }

  private sampleObject(located: Located, schema: Json, depth: number): Json {
    const value: Json = {};
    const properties = (schema.properties ?? {}) as Json;
    for (const key of Array.isArray(schema.required) ? (schema.required as string[]) : []) {
      const member = this.sample(
        { ...located, pointer: `${located.pointer}/properties/${key}`, schema: properties[key] },
        depth + 1,
      );
      value[key] = member === undefined ? this.probeText : member;
    }
    return value;
  }
}

function within(preferred: number, schema: Json): number {
  let value = preferred;
  if (typeof schema.minimum === "number") value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === "number") value = Math.max(value, schema.exclusiveMinimum + 1);
  if (typeof schema.maximum === "number") value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMaximum === "number")
    value = Math.min(value, schema.exclusiveMaximum - (schema.type === "integer" ? 1 : 0.1));
  return value;
}
