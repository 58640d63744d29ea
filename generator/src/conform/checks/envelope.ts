/**
 * The JSON-RPC envelope and ids (§4, §12, §14.1): ids echoed with their type, malformed
 * requests answered with the right code instead of a result or silence, unknown fields and
 * nulls tolerated, pipelined requests each answered once.
 */
import { isJsonObject } from "../../load/json-pointer.js";
import { fail, shown, skip, verdict, type CaseVerdict, type CheckEntry } from "../check.js";
import { errorCode, outcome, resultOf, type ConformContext } from "../context.js";
import { isResponse } from "../session.js";

/** Sends a malformed frame with an id; the answer must be an error with one of `codes`. */
async function malformed(ctx: ConformContext, frame: Record<string, unknown>, codes: readonly number[]) {
  const { answers } = await ctx.session.unanswered(frame);
  const answer = answers.find(isResponse);
  const code = (answer?.error as { code?: unknown } | undefined)?.code;
  return verdict(
    typeof code === "number" && codes.includes(code),
    `${shown(frame)} was answered with ${shown(answer)}; expected error ${codes.join(" or ")}`,
  );
}

export const envelopeChecks: CheckEntry[] = [
  {
    id: "envelope.id-echoed",
    section: "§4.7, §14.1",
    level: "L0",
    phase: "main",
    title: "the response echoes the request id unchanged: a string, and the number 0",
    async run(ctx) {
      const text = await ctx.call("ping", {}, { id: "conform-id-text" });
      const zero = await ctx.call("ping", {}, { id: 0 });
      const ok = text.response?.id === "conform-id-text" && zero.response?.id === 0;
      return verdict(
        ok,
        `ids "conform-id-text" and 0 came back as ${shown(text.response?.id)} and ${shown(zero.response?.id)}`,
      );
    },
  },
  {
    id: "envelope.malformed-request",
    section: "§4, §4.1, §4.7, §12",
    level: "L0",
    phase: "main",
    title: "a malformed request gets an error, not a result",
    async run(ctx): Promise<CaseVerdict[]> {
      const cases: Array<[string, string, Record<string, unknown>, number[]]> = [
        [
          "null-id",
          "an id of null is -32600 (§4.7)",
          { jsonrpc: "2.0", id: null, method: "ping", params: {} },
          [-32600],
        ],
        [
          "jsonrpc",
          'jsonrpc "1.0" is -32600 (§4)',
          { jsonrpc: "1.0", id: ctx.id("v"), method: "ping", params: {} },
          [-32600],
        ],
        [
          "method-type",
          "a method that is not a string is -32600 (§4.1)",
          { jsonrpc: "2.0", id: ctx.id("m"), method: 42 },
          [-32600],
        ],
        [
          "positional-params",
          "positional (array) params are -32602 or -32600 (§4.1)",
          { jsonrpc: "2.0", id: ctx.id("p"), method: "ping", params: ["a"] },
          [-32602, -32600],
        ],
      ];
      const results: CaseVerdict[] = [];
      for (const [key, title, frame, codes] of cases)
        results.push({ key, title, ...(await malformed(ctx, frame, codes)) });
      return results;
    },
  },
  {
    id: "envelope.parse-error",
    section: "§12, §5",
    level: "L0",
    phase: "main",
    title: "text that is not JSON is answered with -32700 and id null",
    async run(ctx) {
      const { answers, http } = await ctx.session.raw('{"jsonrpc":"2.0","id":1,"method":"ping",');
      const answer = answers.find(isResponse);
      if (http !== undefined && http.status === 400 && answer === undefined) return verdict(true, "");
      const code = (answer?.error as { code?: unknown } | undefined)?.code;
      return verdict(code === -32700 && answer?.id === null, `answered with ${shown(answer)}`);
    },
  },
  {
    id: "envelope.unknown-fields",
    section: "§4.4, §4.6, §14.1",
    level: "L0",
    phase: "main",
    title: "unknown params members and _meta keys are ignored, never rejected",
    async run(ctx) {
      const extra = { "x-conform-field": { nested: true }, _meta: { "x-conform-meta": 1 } };
      const ping = await ctx.call("ping", { nonce: 5, ...extra });
      if (resultOf(ping)?.nonce !== 5) return fail(`ping with unknown members: ${outcome(ping)}`);
      const probe = ctx.probe();
      if (probe === undefined) return verdict(true, "");
      const exchange = await ctx.call(probe.method, { ...probe.params, ...extra });
      return verdict(resultOf(exchange) !== undefined, `${probe.method} with unknown members: ${outcome(exchange)}`);
    },
  },
  {
    id: "envelope.null-is-absent",
    section: "§4.6",
    level: "L0",
    phase: "main",
    title: "an explicit null for an optional param is treated as absent",
    async run(ctx) {
      for (const { method, params: valid } of ctx.callable()) {
        const optional = optionalMembers(ctx, method).filter((name) => !(name in valid));
        if (optional.length === 0) continue;
        const params = { ...valid, [optional[0]!]: null };
        const exchange = await ctx.call(method, params);
        return verdict(resultOf(exchange) !== undefined, `${method} with ${optional[0]}: null: ${outcome(exchange)}`);
      }
      return skip("no advertised method has an optional param");
    },
  },
  {
    id: "envelope.pipelined",
    section: "§4.7",
    level: "L0",
    phase: "main",
    title: "requests sent without waiting are each answered once, correlated by id",
    async run(ctx) {
      const ids = [1, 2, 3, 4].map((n) => ctx.id(`pipe${n}`));
      const exchanges = await Promise.all(ids.map((id, n) => ctx.session.call(ctx.request("ping", { nonce: n }, id))));
      const wrong = exchanges.filter((exchange, n) => resultOf(exchange)?.nonce !== n);
      return verdict(wrong.length === 0, `${wrong.length} of 4 pipelined pings were not answered with their own nonce`);
    },
  },
  {
    id: "errors.unknown-method",
    section: "§7, §12, §14.1",
    level: "L0",
    phase: "main",
    title: "a method RCP does not define is rejected with -32004 (not -32601)",
    async run(ctx) {
      const exchange = await ctx.call("conform/not-a-method");
      return verdict(errorCode(exchange) === -32004, `conform/not-a-method: ${outcome(exchange)}`);
    },
  },
  {
    id: "errors.notification-as-request",
    section: "§4.5, §7.14",
    level: "L0",
    phase: "main",
    title: "notifications/cancel sent with an id is malformed: -32600",
    async run(ctx) {
      const exchange = await ctx.call("notifications/cancel", { id: "conform-never-sent" });
      return verdict(errorCode(exchange) === -32600, `notifications/cancel with an id: ${outcome(exchange)}`);
    },
  },
];

/** Top-level optional params of a method, except `_meta` and those whose schema lists null. */
function optionalMembers(ctx: ConformContext, method: string): string[] {
  const params = ctx.folder.methods.find((entry) => entry.method === method)?.document.$defs.params;
  const properties = isJsonObject(params?.["properties"]) ? params["properties"] : {};
  const listed = params?.["required"];
  const required = new Set(Array.isArray(listed) ? listed : []);
  return Object.keys(properties).filter((name) => {
    const member = properties[name];
    const type = isJsonObject(member) ? member["type"] : undefined;
    const allowsNull = type === "null" || (Array.isArray(type) && type.includes("null"));
    return name !== "_meta" && !required.has(name) && !allowsNull;
  });
}
