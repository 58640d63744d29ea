/**
 * The mock's results: per method, templates taken from the folder's examples (valid ones
 * only), else sampled from the result schema with json-schema-faker (seeded); then shaped to
 * the request by the method's `x-rcp.results` rules (at most k hits ranked by score, one vector
 * per input of the advertised dimension), so a result follows from its request the way the
 * schema says, and a paged method answers one page. Templates and the items lists are filled
 * from are made once, when the mock starts: a request only copies and shapes.
 */
import { generateSync } from "json-schema-faker";
import type { JsonObject, MethodDescriptor, ProtocolDescriptor } from "@rcp-gen/runtime";
import { getPath, setPath } from "@rcp-gen/runtime/testing";
import { examplesOf, type ExampleSet } from "../targets/shared/examples.js";
import { isJsonObject } from "../load/json-pointer.js";
import type { LoadedMethod, LoadedSchemaFolder } from "../load/loaded-folder.js";
import type { ResultRule } from "../load/meta-schema/schema-files.js";
import { inlineSchema } from "./inline-schema.js";
import type { Random } from "./seeded.js";

type Json = Record<string, unknown>;

/** Samples tried per method before giving up on a schema the generator cannot satisfy. */
const SAMPLE_ATTEMPTS = 24;
const TEMPLATES = 4;
const POOL_ITEMS = 8;
/** The longest list an `atMost` rule makes, whatever the request asks (k is clamped to maxK first). */
export const MAX_LIST = 100;

/** A schema sampled with json-schema-faker, seeded. */
export function sample(schema: unknown, seed: number): unknown {
  return generateSync(schema as Parameters<typeof generateSync>[0], {
    seed,
    maxDefaultItems: 3,
    optionalsProbability: 0.5,
    useExamplesValue: true,
    validateSchemaVersion: false,
    failOnInvalidTypes: false,
  });
}

/** What the mock answers one method with. */
export class MethodResults {
  readonly #templates: readonly Json[];
  readonly #pools = new Map<string, readonly unknown[]>();
  #served = 0;

  constructor(
    readonly method: LoadedMethod,
    readonly descriptor: MethodDescriptor,
    folder: LoadedSchemaFolder,
    examples: ExampleSet | undefined,
    seed: number,
  ) {
    const ref = `${method.file}#/$defs/result`;
    const schema = method.document.$defs.result;
    const examplesFound = examplesOf({ ref, schema }, examples)
      .map(({ value }) => value)
      .filter((value): value is Json => isJsonObject(value) && descriptor.result(value));
    const inlined = inlineSchema(folder, ref);
    this.#templates = examplesFound.length > 0 ? examplesFound : sampledValid(inlined, seed, descriptor.result);
    for (const rule of this.rules) {
      if (rule.rule === "length" || rule.rule === "order" || this.#pools.has(rule.result)) continue;
      const listed = this.#templates.flatMap((template) => listAt(template, rule.result) ?? []);
      const itemSchema = itemSchemaAt(inlined, rule.result);
      const sampled =
        itemSchema === undefined
          ? []
          : Array.from({ length: POOL_ITEMS }, (_, n) => sample(itemSchema, seed + 1000 + n));
      this.#pools.set(rule.result, [...listed, ...sampled]);
    }
  }

  get rules(): readonly ResultRule[] {
    return this.method.annotation.results ?? [];
  }

  /** Whether there is anything to answer with (a schema json-schema-faker could not satisfy has none). */
  get available(): boolean {
    return this.#templates.length > 0;
  }

  /** The next result, shaped to `params`. */
  resultFor(params: Json, capabilities: Readonly<JsonObject>, random: Random): Json {
    const result = structuredClone(this.#templates[this.#served++ % this.#templates.length]!);
    for (const rule of this.rules) {
      if (rule.rule === "order") {
        const numbers = listAt(result, rule.of) ?? [];
        const value = (index: number) => (typeof numbers[index] === "number" ? numbers[index] : 0);
        const indexes = numbers.map((_, index) => index).sort((a, b) => value(b) - value(a));
        if (getPath(result, rule.result) !== undefined) setPath(result, rule.result, indexes);
        continue;
      }
      if (rule.rule === "length") {
        const size = getPath(capabilities, rule.capability);
        const list = listAt(result, rule.result);
        if (typeof size === "number" && list !== undefined)
          setPath(
            result,
            rule.result,
            list.map(() => Array.from({ length: size }, () => random() * 2 - 1)),
          );
        continue;
      }
      const wanted = getPath(params, rule.param);
      const count =
        rule.rule === "atMost"
          ? Math.min(typeof wanted === "number" ? wanted : MAX_LIST, MAX_LIST)
          : Array.isArray(wanted)
            ? wanted.length
            : 0;
      const pool = this.#pools.get(rule.result) ?? [];
      const items =
        pool.length === 0 ? [] : Array.from({ length: count }, (_, n) => structuredClone(pool[n % pool.length]));
      if (rule.rule === "atMost" && rule.rankedBy !== undefined) rankBy(items, rule.rankedBy);
      setPath(result, rule.result, items);
    }
    const nextCursor = this.method.annotation.pagination?.nextCursor;
    // One page: a cursor the mock made up would page a client forever.
    if (nextCursor !== undefined) delete result[nextCursor];
    return result;
  }

  /** A partial for progress: the result's members the method's partial schema names, when they validate. */
  partialOf(result: Json, share: number): Json | undefined {
    const partial = this.descriptor.partial;
    const properties = this.method.document.$defs.partial?.properties;
    if (partial === undefined || !isJsonObject(properties)) return undefined;
    const taken: Json = {};
    for (const key of Object.keys(properties)) {
      const value = result[key];
      if (value === undefined) continue;
      taken[key] = Array.isArray(value) ? value.slice(0, Math.ceil(value.length * share)) : value;
    }
    return Object.keys(taken).length > 0 && partial(taken) ? taken : undefined;
  }
}

/** Every method's results, by wire name. */
export function methodResults(
  folder: LoadedSchemaFolder,
  protocol: ProtocolDescriptor,
  examples: ExampleSet | undefined,
  seed: number,
): Map<string, MethodResults> {
  const results = new Map<string, MethodResults>();
  for (const method of folder.methods) {
    const descriptor = protocol.methods[method.method];
    if (descriptor === undefined || method.annotation.lifecycle !== undefined) continue;
    results.set(method.method, new MethodResults(method, descriptor, folder, examples, seed));
  }
  return results;
}

function sampledValid(schema: unknown, seed: number, valid: (value: unknown) => boolean): Json[] {
  const found: Json[] = [];
  for (let attempt = 0; attempt < SAMPLE_ATTEMPTS && found.length < TEMPLATES; attempt++) {
    const value = sample(schema, seed + attempt);
    if (isJsonObject(value) && valid(value)) found.push(value);
  }
  return found;
}

function listAt(root: Json, path: string): unknown[] | undefined {
  const value = getPath(root, path);
  return Array.isArray(value) ? value : undefined;
}

/** The inlined schema of the items of the list at a dotted result path. */
function itemSchemaAt(schema: unknown, path: string): unknown {
  let node = schema;
  for (const key of path.split("."))
    node = isJsonObject(node) ? (node.properties as Json | undefined)?.[key] : undefined;
  return isJsonObject(node) ? node.items : undefined;
}

/** Best first: items sorted by the number at `path`, highest first. */
function rankBy(items: unknown[], path: string): void {
  const score = (item: unknown) => {
    const value = getPath(item, path);
    return typeof value === "number" ? value : Number.NEGATIVE_INFINITY;
  };
  items.sort((a, b) => score(b) - score(a));
}
