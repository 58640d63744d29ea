/**
 * HTTP (§5.2): status 200 for every JSON-RPC response, errors included; the path's method
 * must match the body's; a body that is not JSON is 400; outside the base path is 404; without
 * `Accept: text/event-stream` a call gets one JSON body; with it, an SSE stream of one-line
 * JSON events, progress first, then exactly one final response, after which the stream ends.
 */
import { shown, skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, type ConformContext } from "../context.js";
import type { HttpSession } from "../http-session.js";
import { toView } from "../http-session.js";
import { isResponse } from "../session.js";

function streamedProbe(ctx: ConformContext) {
  if (ctx.capabilities["streaming"] === undefined) return undefined;
  return ctx.probe({ streaming: true });
}

export const httpChecks: CheckEntry[] = [
  {
    id: "http.status",
    section: "§5.2",
    level: "L0",
    on: "http",
    phase: "main",
    title: "JSON-RPC responses, errors included, come with HTTP 200 and Content-Type application/json",
    async run(ctx): Promise<CaseVerdict[]> {
      const ok = await ctx.call("ping");
      const error = await ctx.call("conform/not-a-method");
      const describe = (exchange: typeof ok) =>
        `HTTP ${exchange.http?.status} ${exchange.http?.contentType}: ${outcome(exchange)}`;
      const isJson = (exchange: typeof ok) =>
        exchange.http?.status === 200 && /^application\/json\b/.test(exchange.http.contentType);
      return [
        {
          key: "result",
          title: "a result is HTTP 200 application/json",
          ...verdict(isJson(ok) && ok.response !== undefined, describe(ok)),
        },
        {
          key: "error",
          title: "a JSON-RPC error is HTTP 200 application/json",
          ...verdict(isJson(error) && errorCode(error) !== undefined, describe(error)),
        },
      ];
    },
  },
  {
    id: "http.path-mismatch",
    section: "§5.2",
    level: "L0",
    on: "http",
    phase: "main",
    title: "a body whose method differs from the URL path's is rejected with -32600",
    async run(ctx) {
      const session = ctx.session as HttpSession;
      const frame = ctx.request("ping", {});
      const view = await session.post("info", JSON.stringify(frame), frame, false);
      const answer = parse(view.body);
      return verdict(
        isResponse(answer) && (answer.error as { code?: unknown } | undefined)?.code === -32600,
        `POST <base>/info with a ping body: HTTP ${view.status}, ${shown(answer)}`,
      );
    },
  },
  {
    id: "http.bad-json-400",
    section: "§5.2",
    level: "L0",
    on: "http",
    phase: "main",
    title: "a body that is not JSON is answered with HTTP 400, or 200 carrying -32700",
    async run(ctx) {
      const { http, answers } = await ctx.session.raw("{not json");
      const code = (answers[0] as { error?: { code?: unknown } } | undefined)?.error?.code;
      return verdict(
        http?.status === 400 || (http?.status === 200 && code === -32700),
        `HTTP ${http?.status}: ${shown(http?.body)}`,
      );
    },
  },
  {
    id: "http.unknown-path-404",
    section: "§5.2",
    level: "L0",
    should: true,
    on: "http",
    phase: "main",
    title: "a path outside the RCP base is answered with HTTP 404",
    async run(ctx) {
      const session = ctx.session as HttpSession;
      const url = new URL("/conform-not-an-rcp-path", session.wire.base).href;
      const view = toView(await session.wire.post({ url }, JSON.stringify(ctx.request("ping"))));
      return verdict(view.status === 404, `POST ${url}: HTTP ${view.status}`);
    },
  },
  {
    id: "http.buffered-without-sse",
    section: "§5.2",
    level: "L0",
    on: "http",
    phase: "main",
    title: "without Accept: text/event-stream a streaming call gets one buffered JSON response",
    async run(ctx) {
      const probe = streamedProbe(ctx) ?? ctx.probe();
      if (probe === undefined) return skip("no advertised method to call");
      const exchange = await ctx.call(probe.method, probe.params, { meta: { progressToken: ctx.id("token") } });
      const http = exchange.http!;
      return verdict(
        /^application\/json\b/.test(http.contentType) &&
          exchange.response !== undefined &&
          exchange.notifications.length === 0,
        `${probe.method}: HTTP ${http.status} ${http.contentType}, ${shown(http.body, 100)}`,
      );
    },
  },
  {
    id: "http.sse",
    section: "§5.2, §9",
    level: "L0",
    on: "http",
    phase: "main",
    title: "an SSE response",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const probe = streamedProbe(ctx);
      if (probe === undefined) return skip("streaming is not advertised, or no streaming method is");
      const request = ctx.request(probe.method, { ...probe.params, _meta: { progressToken: ctx.id("token") } });
      const exchange = await ctx.session.call(request, { stream: true });
      const http = exchange.http!;
      if (http.sse === undefined)
        return /^application\/json\b/.test(http.contentType)
          ? { status: "pass", detail: "answered with one JSON body (SSE is a MAY)" }
          : { status: "fail", detail: `HTTP ${http.status} ${http.contentType}` };
      const frames = http.sse.frames;
      const finals = frames.map((frame, index) => (isResponse(frame) ? index : -1)).filter((index) => index >= 0);
      const last = finals[0];
      return [
        {
          key: "framing",
          title: "each event is one data: line of compact JSON, then a blank line",
          ...verdict(http.sse.faults.length === 0, http.sse.faults.join("; ")),
        },
        {
          key: "one-final",
          title: "exactly one final frame carries the response",
          ...verdict(
            finals.length === 1 && (frames[last!] as Record<string, unknown>).id === request.id,
            `${finals.length} response frames in ${frames.length} events`,
          ),
        },
        {
          key: "nothing-after",
          title: "nothing follows the final frame and the stream ends",
          ...verdict(
            last !== undefined && last === frames.length - 1 && http.ended,
            last === undefined
              ? "no final frame"
              : last !== frames.length - 1
                ? `${frames.length - 1 - last} events after the final frame: ${shown(frames[last + 1], 100)}`
                : "the stream stayed open after the final frame",
          ),
        },
      ];
    },
  },
];

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
