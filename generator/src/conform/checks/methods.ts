/**
 * Every method, generated from the schema (§6, §7, §12, §14.1): an advertised method answers
 * valid params with a result its schema accepts and malformed params with -32602 naming the
 * field; a method whose capability is not advertised is -32003; every advertised capability's
 * metadata has the shape §6 gives it.
 */
import { isJsonObject, readPointer } from "../../load/json-pointer.js";
import { shown, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, resultOf, type ConformContext } from "../context.js";
import { validatorFor } from "../protocol.js";
import { schemaProblems } from "@rcp-gen/runtime/testing";

type Json = Record<string, unknown>;

const specOf = (ctx: ConformContext, method: string): string => ctx.protocol.methods[method]?.spec ?? "§7";

export const methodChecks: CheckEntry[] = [
  {
    id: "capability.metadata",
    section: "§6, §6.1",
    level: "L0",
    phase: "main",
    title: "each advertised capability's metadata has the shape §6 gives it",
    run(ctx): CaseVerdict[] {
      return Object.keys(ctx.capabilities).flatMap((key): CaseVerdict[] => {
        const pointer = `/$defs/serverCapabilities/properties/${key}`;
        if (readPointer(ctx.folder.files.get("capabilities.json"), pointer) === undefined) return [];
        const validate = validatorFor(ctx.folder, "capabilities.json", pointer)!;
        const problems = schemaProblems(validate, ctx.capabilities[key], ["capabilities", key]).map(
          (entry) => entry.message,
        );
        return [
          {
            key,
            title: `capability ${key}: metadata matches §6`,
            ...verdict(problems.length === 0, problems.join("; ")),
          },
        ];
      });
    },
  },
  {
    id: "method.valid-call",
    section: "§7, §14.1",
    level: "L0",
    phase: "main",
    title:
      "an advertised method answers valid params with a result its schema accepts (or an error its schema documents)",
    async run(ctx): Promise<CaseVerdict[]> {
      const cases: CaseVerdict[] = [];
      for (const method of ctx.advertisedMethods()) {
        const title = `${method}: valid params get a result matching the schema`;
        const section = specOf(ctx, method);
        const built = probeParams(ctx, method);
        if ("reason" in built) {
          cases.push({ key: method, title, section, status: "skip", detail: built.reason });
          continue;
        }
        const exchange = await ctx.call(method, built.params);
        const documented = ctx.documentedError(method, exchange);
        if (documented !== undefined)
          ctx.notes.push(
            `${method} answered its probe with ${outcome(exchange)}, ${documented}, an error its schema documents (x-rcp.errors): ` +
              "a documented domain error counts as a correct answer, since a probe's params may name nothing the engine holds",
          );
        const answer =
          documented === undefined
            ? resultVerdict(ctx, method, built.params, exchange)
            : verdict(ctx.problems(exchange.response).length === 0, ctx.problems(exchange.response).join("; "));
        cases.push({ key: method, title, section, ...answer });
        await built.cleanUp?.();
      }
      return cases;
    },
  },
  {
    id: "method.invalid-params",
    section: "§12, §14.1",
    level: "L0",
    phase: "main",
    title: "an advertised method answers malformed params with -32602 naming the member (§12.1, a SHOULD)",
    async run(ctx): Promise<CaseVerdict[]> {
      const cases: CaseVerdict[] = [];
      for (const { method, params } of ctx.callable()) {
        const broken = brokenParams(ctx, method, params);
        if (broken === undefined) continue;
        const exchange = await ctx.call(method, broken.params);
        cases.push({
          key: method,
          title: `${method}: ${broken.what} is -32602`,
          ...verdict(errorCode(exchange) === -32602, `${method} with ${broken.what}: ${outcome(exchange)}`),
        });
        if (errorCode(exchange) !== -32602) continue;
        const field = ((exchange.response!.error as Json).data as Json | undefined)?.field;
        cases.push({
          key: `${method}.field`,
          title: `${method}: error.data.field is "${broken.field}"`,
          section: "§12.1",
          should: true,
          ...verdict(field === broken.field, `error.data.field is ${shown(field)}`),
        });
      }
      return cases;
    },
  },
  {
    id: "errors.unadvertised-method",
    section: "§6, §12, §14.1",
    level: "L0",
    phase: "main",
    title: "a method whose capability is not advertised is rejected with -32003",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const cases: CaseVerdict[] = [];
      for (const method of ctx.userMethods().filter((name) => !ctx.advertises(name))) {
        const sampled = ctx.sampler().validParams(method, { gated: false });
        const exchange = await ctx.call(method, "params" in sampled ? sampled.params : {});
        const descriptor = ctx.protocol.methods[method]!;
        const missing =
          ctx.capabilities[descriptor.capability ?? ""] === undefined ? descriptor.capability : descriptor.requires;
        cases.push({
          key: method,
          title: `${method} (${missing} not advertised) is -32003`,
          ...verdict(errorCode(exchange) === -32003, `${method}: ${outcome(exchange)}`),
        });
      }
      return cases.length > 0 ? cases : { status: "skip", detail: "every method's capability is advertised" };
    },
  },
];

/** A result the method's schema accepts, as validateFrame reads it. */
export function resultVerdict(
  ctx: ConformContext,
  method: string,
  _params: Json,
  exchange: Parameters<typeof outcome>[0],
): Verdict {
  if (resultOf(exchange) === undefined) return { status: "fail", detail: `${method}: ${outcome(exchange)}` };
  const problems = ctx.problems(exchange.response, { method });
  return verdict(problems.length === 0, problems.join("; "));
}

/**
 * Valid params, except for writes: an added document gets an id of ours and is deleted
 * afterwards, so the check leaves the server's index as it found it.
 */
function probeParams(
  ctx: ConformContext,
  method: string,
): { params: Json; cleanUp?: () => Promise<void> } | { reason: string } {
  const built = ctx.validParams(method);
  if (!("params" in built) || method !== "index/add") return built;
  const id = ctx.id("doc");
  const params = { ...built.params, documents: [{ id, text: `${ctx.query.text} probe document` }] };
  return {
    params,
    cleanUp: async () => {
      if (ctx.advertises("index/delete")) await ctx.call("index/delete", { ids: [id] });
    },
  };
}

/** Valid params with their first required member removed, or given a value of the wrong type. */
function brokenParams(
  ctx: ConformContext,
  method: string,
  valid: Json,
): { params: Json; what: string; field: string } | undefined {
  const params = ctx.folder.methods.find((entry) => entry.method === method)!.document.$defs.params;
  const required = params["required"];
  const first = Array.isArray(required) ? (required[0] as string | undefined) : undefined;
  if (first !== undefined) {
    const { [first]: _dropped, ...params } = valid;
    return { params, what: `params without the required ${first}`, field: first };
  }
  const properties = params["properties"];
  const member = Object.keys(isJsonObject(properties) ? properties : {}).find((name) => name !== "_meta");
  if (member === undefined) return undefined;
  const wrong = { ...valid, [member]: { "x-conform": "an object where the schema wants something else" } };
  return ctx.protocol.methods[method]!.params(wrong)
    ? undefined
    : { params: wrong, what: `an object for ${member}`, field: member };
}
