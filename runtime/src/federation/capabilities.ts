/**
 * What a federating server advertises (§16.4) over the engines that advertise `retrieve`:
 * `union` is the effective set (an option is offered when any engine offers it, and a request
 * using it reaches only the engines that do), `intersection` the guaranteed one (offered only
 * when every engine offers it). Values merge by their JSON type: lists by union/intersection,
 * limits by max/min, flags by or/and, objects key by key, text only when every engine agrees.
 * The federator answers `retrieve` itself, so only what `retrieve` reads is merged: `retrieve`,
 * `filter` and `citations`; it adds `streaming` (its own progress) and `catalog` (§7.13).
 */
import { FILTER_OPERATORS } from "../filter/validate.js";
import { isRecord } from "../protocol/dotted-paths.js";
import type { EngineClient } from "./engine-handle.js";

/** Whether a federation offers what any engine offers, or only what every engine does (§16.4). */
export type CapabilityRule = "union" | "intersection";

/** What the federator's fused ranking changes in `retrieve`'s metadata (§6.1, §16.3). */
const RETRIEVE_OVERRIDES: Readonly<Record<string, (values: unknown[], rule: CapabilityRule) => unknown>> = {
  // Fused scores are on no engine's scale; their floor is set below.
  scoreScale: () => undefined,
  // An indexVersion names one engine's snapshot; a federation cannot pin all of them.
  snapshots: () => undefined,
  // A guarantee rather than an option: it holds for the federation only if it holds for every engine.
  deterministic: (values) => values.every((value) => value === true),
};

/** The capabilities a federating server advertises over its engines' (§16.4). */
export function federatedCapabilities(
  engines: readonly { client: EngineClient }[],
  rule: CapabilityRule,
): Record<string, unknown> {
  const retrieving = engines
    .map(({ client }) => client.serverCapabilities ?? {})
    .filter((capabilities) => isRecord(capabilities.retrieve));
  const capabilities: Record<string, unknown> = { catalog: { engines: engines.length }, streaming: {} };
  if (retrieving.length === 0) return capabilities;
  capabilities.retrieve = {
    ...mergeObjects(
      retrieving.map((engine) => engine.retrieve as Record<string, unknown>),
      rule,
      RETRIEVE_OVERRIDES,
    ),
    // Fused scores (RRF terms, normalised sums) are never below 0, whatever the engines' scales (§6.1).
    scoreFloor: 0,
  };
  const filter = mergeFilters(
    retrieving.map((engine) => engine.filter),
    rule,
  );
  if (filter !== undefined) capabilities.filter = filter;
  const citations = present(
    retrieving.map((engine) => engine.citations),
    rule,
  );
  if (citations) capabilities.citations = {};
  return capabilities;
}

/** Whether a capability is offered under `rule`: by any engine (union) or by all (intersection). */
function present(values: readonly unknown[], rule: CapabilityRule): boolean {
  const offered = values.filter((value) => value !== undefined && value !== null && value !== false);
  return rule === "union" ? offered.length > 0 : offered.length === values.length;
}

function mergeObjects(
  objects: readonly Record<string, unknown>[],
  rule: CapabilityRule,
  overrides: Readonly<Record<string, (values: unknown[], rule: CapabilityRule) => unknown>> = {},
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const keys = new Set(objects.flatMap((object) => Object.keys(object)));
  for (const key of keys) {
    const values = objects.map((object) => object[key]);
    const override = overrides[key];
    // An override sees every engine's value, absent ones included: an engine silent on a guarantee does not give it.
    const value = override
      ? override(values, rule)
      : present(values, rule)
        ? mergeValues(
            values.filter((item) => item !== undefined),
            rule,
          )
        : undefined;
    if (value !== undefined) merged[key] = value;
  }
  return merged;
}

function mergeValues(values: readonly unknown[], rule: CapabilityRule): unknown {
  const [first] = values;
  if (values.every((value) => Array.isArray(value))) return mergeLists(values as unknown[][], rule);
  if (values.every((value) => typeof value === "number")) {
    return rule === "union" ? Math.max(...(values as number[])) : Math.min(...(values as number[]));
  }
  if (values.every((value) => typeof value === "boolean")) {
    return rule === "union" ? values.some(Boolean) : values.every(Boolean);
  }
  if (values.every(isRecord)) return mergeObjects(values, rule);
  // Text (a default mode, an identity) or mixed types: meaningful only when every engine agrees.
  return values.every((value) => JSON.stringify(value) === JSON.stringify(first)) ? first : undefined;
}

function mergeLists(lists: readonly unknown[][], rule: CapabilityRule): unknown[] {
  const key = (value: unknown) => JSON.stringify(value);
  const all = lists
    .flat()
    .filter((value, index, flat) => flat.findIndex((other) => key(other) === key(value)) === index);
  if (rule === "union") return all;
  return all.filter((value) => lists.every((list) => list.some((member) => key(member) === key(value))));
}

/**
 * `filter` (§8): fields merged by name (the object form when every merged field has one type,
 * the names alone otherwise), operators as lists, an absent list meaning all ten.
 */
function mergeFilters(values: readonly unknown[], rule: CapabilityRule): Record<string, unknown> | undefined {
  if (!present(values, rule)) return undefined;
  const filters = values.filter(isRecord);
  const tables = filters.map((filter) => fieldTable(filter.fields));
  const names = mergeLists(
    tables.map((table) => [...table.keys()]),
    rule,
  ) as string[];
  const types = new Map<string, string | undefined>();
  for (const name of names) {
    const declared = new Set(tables.filter((table) => table.has(name)).map((table) => table.get(name)));
    types.set(name, declared.size === 1 ? [...declared][0] : undefined);
  }
  const typed = [...types.values()].every((type) => type !== undefined);
  const operators = mergeLists(
    filters.map((filter) =>
      Array.isArray(filter.operators) ? (filter.operators as unknown[]) : [...FILTER_OPERATORS],
    ),
    rule,
  );
  return { fields: typed ? Object.fromEntries(types) : names, operators };
}

function fieldTable(fields: unknown): Map<string, string | undefined> {
  if (Array.isArray(fields))
    return new Map(fields.filter((name) => typeof name === "string").map((name) => [name, undefined]));
  if (!isRecord(fields)) return new Map();
  return new Map(Object.entries(fields).map(([name, type]) => [name, typeof type === "string" ? type : undefined]));
}
