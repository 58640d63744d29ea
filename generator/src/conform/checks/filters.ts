/**
 * Metadata filters (§8, §15.4), for every method whose schema carries a filter rule, against
 * the advertised `filter.fields` and `filter.operators`: an unadvertised field is -32602, an
 * unadvertised operator -32005, a value or operator that does not fit the field's type
 * -32602, an empty `and` -32602, and a well-formed filter on an advertised field is served.
 */
import { FILTER_OPERATORS, type FilterRule } from "@rcp-gen/runtime";
import { getPath } from "@rcp-gen/runtime/testing";
import { skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, type ConformContext } from "../context.js";
import { resultVerdict } from "./methods.js";

type Json = Record<string, unknown>;

const SAMPLE_VALUES: Readonly<Record<string, unknown>> = {
  keyword: "x-conform-value",
  text: "x-conform-value",
  int: 1,
  float: 0.5,
  bool: true,
  date: "2024-01-01T00:00:00Z",
};
const NUMERIC = new Set(["int", "float"]);
const ORDERED_OPERATORS = ["gt", "gte", "lt", "lte"];

interface FilterTarget {
  readonly method: string;
  readonly rule: FilterRule;
  readonly base: Json;
  /** Advertised field names with their type when advertised as an object (§8). */
  readonly fields: ReadonlyMap<string, string | undefined>;
  readonly operators: readonly string[];
  readonly operatorsAdvertised: boolean;
}

function filterTargets(ctx: ConformContext): FilterTarget[] {
  const targets: FilterTarget[] = [];
  for (const { method, params } of ctx.callable()) {
    for (const rule of ctx.protocol.methods[method]!.rules ?? []) {
      if (rule.rule !== "filter") continue;
      const advertised = getPath(ctx.capabilities, rule.fields);
      const fields = new Map<string, string | undefined>(
        Array.isArray(advertised)
          ? advertised.filter((name): name is string => typeof name === "string").map((name) => [name, undefined])
          : Object.entries((advertised ?? {}) as Json).map(([name, type]) => [
              name,
              typeof type === "string" ? type : undefined,
            ]),
      );
      if (fields.size === 0) continue;
      const operators = getPath(ctx.capabilities, rule.operators);
      targets.push({
        method,
        rule,
        base: params,
        fields,
        operators: Array.isArray(operators) ? (operators as string[]) : [...FILTER_OPERATORS],
        operatorsAdvertised: Array.isArray(operators),
      });
    }
  }
  return targets;
}

export const filterChecks: CheckEntry[] = [
  {
    id: "filter.rules",
    section: "§8",
    level: "L0",
    phase: "main",
    title: "filters against the advertised fields and operators",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const targets = filterTargets(ctx);
      if (targets.length === 0) return skip("no advertised method takes a filter, or no fields are advertised");
      const cases: CaseVerdict[] = [];
      for (const target of targets) cases.push(...(await filterCases(ctx, target)));
      return cases;
    },
  },
];

async function filterCases(ctx: ConformContext, target: FilterTarget): Promise<CaseVerdict[]> {
  const { method, rule, fields, operators } = target;
  const cases: CaseVerdict[] = [];
  const call = async (key: string, title: string, filter: unknown, expected: number | "result", section = "§8") => {
    const built = ctx.sampler().withOption(method, target.base, rule.param, filter);
    if (!("params" in built)) return;
    const exchange = await ctx.call(method, built.params);
    const result: Verdict =
      expected === "result"
        ? resultVerdict(ctx, method, built.params, exchange)
        : verdict(
            errorCode(exchange) === expected,
            `${method} with ${rule.param}: ${JSON.stringify(filter)}: ${outcome(exchange)}`,
          );
    cases.push({ key: `${method}.${key}`, title: `${method}: ${title}`, section, ...result });
  };
  const [field, type] = [...fields].find(([, fieldType]) => fieldType === undefined || fieldType in SAMPLE_VALUES)!;
  const op = ["eq", "exists", ...operators].find((name) => operators.includes(name));
  if (op !== undefined) {
    const value = op === "exists" ? true : SAMPLE_VALUES[type ?? "keyword"];
    await call(
      "advertised-field",
      `a filter on the advertised field ${field} is served`,
      { field, op, value },
      "result",
    );
    await call(
      "unadvertised-field",
      "a filter on a field not in filter.fields is -32602",
      { field: "x-conform-unadvertised-field", op, value },
      -32602,
      "§8, §15.4",
    );
    await call("empty-and", "an empty and is -32602", { and: [] }, -32602);
  }
  const missing = FILTER_OPERATORS.find((name) => !operators.includes(name));
  if (target.operatorsAdvertised && missing !== undefined)
    await call(
      "unadvertised-operator",
      `the operator ${missing}, not in filter.operators, is -32005`,
      { field, op: missing, value: missing === "exists" ? true : missing === "in" || missing === "nin" ? ["x"] : 1 },
      -32005,
    );
  const numeric = [...fields].find(([, fieldType]) => fieldType !== undefined && NUMERIC.has(fieldType));
  if (numeric !== undefined && operators.includes("eq"))
    await call(
      "value-type",
      `a string value for the ${numeric[1]} field ${numeric[0]} is -32602`,
      { field: numeric[0], op: "eq", value: "x-conform-not-a-number" },
      -32602,
    );
  const unordered = [...fields].find(([, fieldType]) => fieldType === "keyword" || fieldType === "bool");
  const ordered = ORDERED_OPERATORS.find((name) => operators.includes(name));
  if (unordered !== undefined && ordered !== undefined)
    await call(
      "operator-type",
      `${ordered} on the ${unordered[1]} field ${unordered[0]} is -32602`,
      { field: unordered[0], op: ordered, value: 1 },
      -32602,
    );
  return cases;
}
