/**
 * Option rules, generated from each method's x-rcp annotation and the advertised metadata:
 * an unadvertised option value is -32005 (§7.7, §12, §14.1), an advertised one is served,
 * `strict: false` turns the -32005 into a fallback the result notes (§7.7), a count above its
 * advertised maximum is clamped, never rejected (§7.7, §12), and the funnel holds (§3.3).
 */
import type { OptionGate } from "@rcp-gen/runtime";
import { deletePath, getPath } from "@rcp-gen/runtime/testing";
import { shown, skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, resultOf, type ConformContext } from "../context.js";
import { truthy } from "../advertised.js";
import { resultVerdict } from "./methods.js";

type Json = Record<string, unknown>;

const UNADVERTISED_TEXT = "x-conform-unadvertised";
const MAX_VALUES_PER_GATE = 4;

interface GateCase {
  readonly method: string;
  readonly gate: OptionGate;
  readonly value: unknown;
  readonly params: Json;
}

/** For each gate of each advertised method: a value the server did not advertise, when the schema allows one. */
function unadvertisedCases(ctx: ConformContext): GateCase[] {
  const cases: GateCase[] = [];
  for (const { method, params: base } of ctx.callable()) {
    for (const gate of ctx.protocol.methods[method]!.gates ?? []) {
      const value = unadvertisedValue(ctx, method, gate);
      if (value === undefined) continue;
      const built = ctx.sampler().withOption(method, base, gate.param, value);
      if ("params" in built) cases.push({ method, gate, value, params: built.params });
    }
  }
  return cases;
}

function unadvertisedValue(ctx: ConformContext, method: string, gate: OptionGate): unknown {
  if (gate.requires !== undefined)
    return truthy(getPath(ctx.capabilities, gate.requires))
      ? undefined
      : ctx.sampler().sampleOption(method, gate.param);
  const advertised = getPath(ctx.capabilities, gate.in!) ?? gate.default;
  const members = Array.isArray(advertised) ? advertised : [];
  const allowed = ctx.sampler().enumAt(method, gate.param);
  if (allowed !== undefined) return allowed.find((value) => !members.includes(value));
  return members.includes(UNADVERTISED_TEXT) ? undefined : UNADVERTISED_TEXT;
}

const describeGate = (gate: OptionGate): string =>
  gate.in !== undefined ? `not in ${gate.in}` : `${gate.requires} not advertised`;

export const optionChecks: CheckEntry[] = [
  {
    id: "option.unadvertised",
    section: "§7.7, §12, §14.1",
    level: "L0",
    phase: "main",
    title: "an option value the server did not advertise is rejected with -32005",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const cases: CaseVerdict[] = [];
      for (const { method, gate, value, params } of unadvertisedCases(ctx)) {
        const exchange = await ctx.call(method, params);
        cases.push({
          key: `${method}.${gate.param}`,
          title: `${method} ${gate.param}: ${shown(value, 40)} (${describeGate(gate)}) is -32005`,
          ...(gate.spec === undefined ? {} : { section: gate.spec }),
          ...verdict(
            errorCode(exchange) === -32005,
            `${method} with ${gate.param}: ${shown(value, 60)}: ${outcome(exchange)}`,
          ),
        });
      }
      return cases.length > 0 ? cases : skip("every option value the schema allows is advertised");
    },
  },
  {
    id: "option.advertised",
    section: "§6, §7",
    level: "L0",
    phase: "main",
    title: "an advertised option value is served",
    async run(ctx): Promise<CaseVerdict[]> {
      const cases: CaseVerdict[] = [];
      for (const { method, params: base } of ctx.callable()) {
        for (const gate of ctx.protocol.methods[method]!.gates ?? []) {
          for (const value of advertisedValues(ctx, method, gate)) {
            const built = ctx.sampler().withOption(method, base, gate.param, value);
            if (!("params" in built)) continue;
            const exchange = await ctx.call(method, built.params);
            cases.push({
              key: `${method}.${gate.param}=${typeof value === "string" ? value : "on"}`,
              title: `${method} ${gate.param}: ${shown(value, 40)} (advertised) is served`,
              ...(gate.spec === undefined ? {} : { section: gate.spec }),
              ...resultVerdict(ctx, method, built.params, exchange),
            });
          }
        }
      }
      return cases;
    },
  },
  {
    id: "option.strict-false",
    section: "§7.7",
    level: "L0",
    phase: "main",
    title: "with strict: false an unadvertised option falls back (or is still -32005), never anything else",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const cases: CaseVerdict[] = [];
      for (const { method, gate, value, params } of unadvertisedCases(ctx)) {
        const strictParam = ctx.protocol.methods[method]!.strictParam;
        if (strictParam === undefined) continue;
        const exchange = await ctx.call(method, { ...params, [strictParam]: false });
        const served = resultOf(exchange) !== undefined && ctx.problems(exchange.response, { method }).length === 0;
        cases.push({
          key: `${method}.${gate.param}`,
          title: `${method} ${gate.param}: ${shown(value, 40)} with ${strictParam}: false falls back or is -32005`,
          ...verdict(served || errorCode(exchange) === -32005, `${outcome(exchange)}`),
        });
      }
      return cases.length > 0 ? cases : skip("no method with a strict param has an unadvertised option");
    },
  },
  {
    id: "option.strict-false-noted",
    section: "§7.7",
    level: "L0",
    should: true,
    phase: "main",
    title: "a strict: false fallback is noted in usage.notes",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const cases: CaseVerdict[] = [];
      for (const { method, gate, params } of unadvertisedCases(ctx)) {
        const strictParam = ctx.protocol.methods[method]!.strictParam;
        if (strictParam === undefined) continue;
        const result = resultOf(await ctx.call(method, { ...params, [strictParam]: false }));
        if (result === undefined) continue;
        const notes = (result.usage as { notes?: unknown } | undefined)?.notes;
        cases.push({
          key: `${method}.${gate.param}`,
          title: `${method} ${gate.param}: the fallback is noted`,
          ...verdict(Array.isArray(notes) && notes.length > 0, `usage.notes is ${shown(notes)}`),
        });
      }
      return cases.length > 0 ? cases : skip("no fallback happened");
    },
  },
  {
    id: "option.clamped",
    section: "§7.7, §12",
    level: "L0",
    phase: "main",
    title: "a count above its advertised maximum is clamped, never rejected",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const cases: CaseVerdict[] = [];
      for (const { method, params: base } of ctx.callable()) {
        for (const clamp of ctx.protocol.methods[method]!.clamps ?? []) {
          const max = getPath(ctx.capabilities, clamp.max);
          if (typeof max !== "number") continue;
          const built = ctx.sampler().withOption(method, base, clamp.param, max + 1000);
          if (!("params" in built)) continue;
          const exchange = await ctx.call(method, built.params);
          const served = resultVerdict(ctx, method, built.params, exchange);
          const hits = resultOf(exchange)?.hits;
          const overflow = clamp.param === "k" && Array.isArray(hits) && hits.length > max;
          cases.push({
            key: `${method}.${clamp.param}`,
            title: `${method} ${clamp.param}: ${max + 1000} (above ${clamp.max} = ${max}) is clamped`,
            ...(overflow
              ? { status: "fail", detail: `${hits.length} hits came back; ${clamp.max} is ${max}` }
              : served),
          });
        }
      }
      return cases.length > 0 ? cases : skip("no clamped count has an advertised maximum");
    },
  },
  {
    id: "option.funnel",
    section: "§3.3, §7.7",
    level: "L0",
    phase: "main",
    title: "the funnel holds: a later count above an earlier one (candidateK >= rerank.topN >= k) is -32602",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const cases: CaseVerdict[] = [];
      for (const { method, params: base } of ctx.callable()) {
        for (const rule of ctx.protocol.methods[method]!.rules ?? []) {
          if (rule.rule !== "nonIncreasing") continue;
          for (let i = 0; i < rule.params.length; i++)
            for (let j = i + 1; j < rule.params.length; j++) {
              const params = violatingOnly(ctx, method, base, rule.params, i, j);
              if (params === undefined) continue;
              const [wide, narrow] = [rule.params[i]!, rule.params[j]!];
              const exchange = await ctx.call(method, params);
              cases.push({
                key: `${method}.${wide}<${narrow}`,
                title: `${method}: ${wide} 1 below ${narrow} 2 is -32602`,
                ...(rule.spec === undefined ? {} : { section: rule.spec }),
                ...verdict(
                  errorCode(exchange) === -32602,
                  `${method} with ${wide}: 1, ${narrow}: 2: ${outcome(exchange)}`,
                ),
              });
            }
        }
      }
      return cases.length > 0 ? cases : skip("no advertised method has a funnel");
    },
  },
];

/** Advertised values of a gate worth serving: up to a few members of an `in` list, or the option itself. */
function advertisedValues(ctx: ConformContext, method: string, gate: OptionGate): unknown[] {
  if (gate.requires !== undefined) {
    if (!truthy(getPath(ctx.capabilities, gate.requires))) return [];
    const sample = ctx.sampler().sampleOption(method, gate.param);
    // An opaque string (a cursor) is only valid when the server issued it; a filter's fields
    // are the server's (filters.ts builds those): neither can be sampled from the schema.
    const filtered = (ctx.protocol.methods[method]!.rules ?? []).some(
      (rule) => rule.rule === "filter" && rule.param === gate.param,
    );
    return sample === undefined || typeof sample === "string" || filtered ? [] : [sample];
  }
  const advertised = getPath(ctx.capabilities, gate.in!);
  return Array.isArray(advertised) ? advertised.slice(0, MAX_VALUES_PER_GATE) : [];
}

/**
 * Params where only the funnel pair (i, j) is out of order: member i is 1 and member j is 2,
 * members before i are 10, after j are 1, and members between them are left out. Undefined
 * when the params cannot be built that way (a member between is required, a gate drops one).
 */
function violatingOnly(
  ctx: ConformContext,
  method: string,
  base: Json,
  funnel: readonly string[],
  i: number,
  j: number,
): Json | undefined {
  const intended = funnel.map((_, index) =>
    index > i && index < j ? undefined : index === i ? 1 : index === j ? 2 : index < i ? 10 : 1,
  );
  let params: Json = structuredClone(base);
  for (let index = 0; index < funnel.length; index++) {
    const value = intended[index];
    if (value === undefined) {
      deletePath(params, funnel[index]!);
      continue;
    }
    const built = ctx.sampler().withOption(method, params, funnel[index]!, value);
    if (!("params" in built)) return undefined;
    params = built.params;
  }
  return funnel.every((path, index) => getPath(params, path) === intended[index]) ? params : undefined;
}
