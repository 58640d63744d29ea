/**
 * Long calls (§7.14, §9, §13.1): a streamed call's progress is well-formed and a call without
 * a token gets none; a cancelled or timed-out call is still answered exactly once, with its
 * result or -32006 / -32014; over HTTP, a client closing the stream leaves the server answering
 * the next call (§5.2). With --slow-meta the calls are slow enough that the abort must win.
 */
import { checkProgressStream } from "@rcp-gen/runtime/testing";
import { fail, pass, shown, skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import { errorCode, outcome, resultOf, type ConformContext } from "../context.js";
import { isResponse, type Exchange } from "../session.js";
import { framesOf, SESSION_HEADER, toView, type HttpSession } from "../http-session.js";
import type { StdioSession } from "../stdio-session.js";
import { sameId } from "../stdio-session.js";

type Json = Record<string, unknown>;

const progressMethod = (ctx: ConformContext): string =>
  Object.values(ctx.protocol.notifications).find((notification) => notification.role === "progress")?.method ??
  `${ctx.protocol.notificationPrefix}progress`;

/** Streaming methods the server advertises, with valid params. */
function streamedCalls(ctx: ConformContext): Array<{ method: string; params: Json }> {
  if (ctx.capabilities["streaming"] === undefined) return [];
  return ctx.callable().filter(({ method }) => ctx.protocol.methods[method]!.streaming);
}

export const streamChecks: CheckEntry[] = [
  {
    id: "progress.well-formed",
    section: "§9",
    level: "L0",
    phase: "main",
    title: "a call with a progressToken streams well-formed progress, then its one response",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const calls = streamedCalls(ctx);
      if (calls.length === 0) return skip("streaming is not advertised, or no streaming method is");
      const cases: CaseVerdict[] = [];
      for (const { method, params } of calls) {
        const token = ctx.id("token");
        const request = ctx.request(method, { ...params, _meta: { progressToken: token } });
        const exchange = await ctx.session.call(request, { stream: true });
        const frames = [
          ...exchange.notifications,
          ...(exchange.response ? [exchange.response] : []),
          ...exchange.strays,
        ];
        const check = checkProgressStream(frames, { protocol: ctx.protocol, request });
        cases.push({
          key: method,
          title: `${method}: progress with one token, in 0..1, never going down, then one response`,
          ...verdict(check.ok, check.ok ? "" : check.errors.map((problem) => problem.message).join("; ")),
        });
      }
      return cases;
    },
  },
  {
    id: "progress.none-without-token",
    section: "§9",
    level: "L0",
    phase: "main",
    title: "a call without a progressToken gets no progress",
    async run(ctx) {
      const [call] = streamedCalls(ctx);
      if (call === undefined) return skip("streaming is not advertised, or no streaming method is");
      const exchange = await ctx.call(call.method, call.params, { stream: true });
      const progress = exchange.notifications.filter((frame) => frame.method === progressMethod(ctx));
      return verdict(
        progress.length === 0,
        `${call.method} without a token brought ${progress.length} progress frames`,
      );
    },
  },
  {
    id: "cancel",
    section: "§7.14, §13.1",
    level: "L0",
    on: "stdio",
    phase: "main",
    title: "a cancelled call",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const probe = ctx.probe({ streaming: true }) ?? ctx.probe();
      if (probe === undefined) return skip("no advertised method to cancel");
      const answers = await cancelled(ctx, probe.method, probe.params);
      const [answer] = answers;
      const once = answers.length === 1 && isResponse(answer) && ("result" in answer || codeOf(answer) === -32006);
      return [
        {
          key: "answered-once",
          title: `${probe.method} cancelled at once is answered exactly once: with its result or -32006`,
          ...verdict(once, `${answers.length} answers: ${answers.map((frame) => shown(frame, 100)).join(", ")}`),
        },
        {
          key: "effective",
          title: `${probe.method} made slow (--slow-meta) and cancelled is answered -32006`,
          should: true,
          ...(ctx.options.slowMeta === undefined
            ? skip("give --slow-meta to make a call slow enough to cancel")
            : codeOf(answer) === -32006
              ? pass()
              : (ctx.noHits(resultOfFrame(answer), probe.params) ?? fail(`answered with ${shown(answer, 100)}`))),
        },
      ];
    },
  },
  {
    id: "cancel",
    section: "§5.2, §7.14",
    level: "L0",
    on: "http",
    phase: "main",
    title: "a cancelled call over HTTP",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const probe = ctx.probe({ streaming: true }) ?? ctx.probe();
      if (probe === undefined) return skip("no advertised method to cancel");
      const session = ctx.session as HttpSession;
      const closed = await streamClosed(ctx, session, probe.method, probe.params);
      const ping = await ctx.call("ping", {});
      const cancelled = await cancelledOverHttp(ctx, session, probe.method, probe.params);
      const responses = cancelled.frames.filter(isResponse);
      const [answer] = responses;
      const once = responses.length === 1 && ("result" in answer! || codeOf(answer) === -32006);
      return [
        {
          key: "stream-closed",
          title: `${probe.method} whose stream the client closes mid-call leaves the server answering the next call`,
          ...verdict(
            closed === undefined && resultOf(ping) !== undefined,
            closed ?? `after the closed stream, ping got ${outcome(ping)}`,
          ),
        },
        {
          key: "answered-once",
          title: `${probe.method} cancelled by a notifications/cancel POST: its stream ends with exactly one response, its result or -32006`,
          ...verdict(
            cancelled.ended && once,
            `${cancelled.ended ? "the stream ended" : "the stream stayed open"} with ${responses.length} responses: ${responses.map((frame) => shown(frame, 100)).join(", ")}`,
          ),
        },
        {
          key: "effective",
          title: `${probe.method} made slow (--slow-meta) and cancelled over HTTP is answered -32006`,
          should: true,
          ...(ctx.options.slowMeta === undefined
            ? skip("give --slow-meta to make a call slow enough to cancel")
            : codeOf(answer) === -32006
              ? pass()
              : (ctx.noHits(resultOfFrame(answer), probe.params) ?? fail(`answered with ${shown(answer, 100)}`))),
        },
      ];
    },
  },
  {
    id: "deadline",
    section: "§13.1",
    level: "L0",
    phase: "main",
    title: "a call past its _meta.deadlineMs",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const probe = ctx.probe({ streaming: true }) ?? ctx.probe();
      if (probe === undefined) return skip("no advertised method to call");
      const exchange = await ctx.call(probe.method, probe.params, { meta: { ...ctx.options.slowMeta, deadlineMs: 1 } });
      const answers = await answersFor(ctx, exchange);
      const described = `${probe.method} with _meta.deadlineMs 1: ${outcome(exchange)}`;
      return [
        {
          key: "answered-once",
          title: `${probe.method} past its deadline is answered exactly once: with its result or -32014`,
          ...verdict(
            answers === 1 && (resultOf(exchange) !== undefined || errorCode(exchange) === -32014),
            `${described}${answers > 1 ? `, answered ${answers} times` : ""}`,
          ),
        },
        {
          key: "enforced",
          title: `${probe.method} made slow (--slow-meta) past its deadline is answered -32014`,
          should: true,
          ...(ctx.options.slowMeta === undefined
            ? skip("give --slow-meta to make a call outlast its deadline")
            : errorCode(exchange) === -32014
              ? pass()
              : (ctx.noHits(resultOf(exchange), probe.params) ?? fail(described))),
        },
      ];
    },
  },
];

/** Sends a call and at once its cancel; returns every answer bearing its id (waiting a grace after the first). */
async function cancelled(ctx: ConformContext, method: string, params: Json): Promise<unknown[]> {
  const session = ctx.session as StdioSession;
  const id = ctx.id("cancelled");
  const mark = session.wire.lines.length;
  const request = ctx.request(method, { ...params, _meta: { ...ctx.options.slowMeta } }, id);
  const pending = session.call(request);
  await session.unanswered(ctx.notification("notifications/cancel", { id, reason: "rcp-gen conform" }));
  await pending;
  await session.wire.settle(50);
  return session.wire.lines
    .slice(mark)
    .map((line) => line.frame)
    .filter((frame) => isResponse(frame) && frame.id === id);
}

/** The headers a streamed call over HTTP sends, its session token included. */
function streamHeaders(session: HttpSession): Record<string, string> {
  return {
    accept: "text/event-stream, application/json",
    ...(session.token === undefined ? {} : { [SESSION_HEADER]: session.token }),
  };
}

/** Starts a slow streamed call and closes its connection once the answer begins; what went wrong, if anything. */
async function streamClosed(
  ctx: ConformContext,
  session: HttpSession,
  method: string,
  params: Json,
): Promise<string | undefined> {
  const request = ctx.request(method, {
    ...params,
    _meta: { ...ctx.options.slowMeta, progressToken: ctx.id("token") },
  });
  ctx.ledger.noteSent(request);
  try {
    const opened = await session.wire.open({ method }, JSON.stringify(request), streamHeaders(session));
    opened.close();
    return undefined;
  } catch (error) {
    return `the call could not be started: ${(error as Error).message}`;
  }
}

/** Starts a streamed call, POSTs its cancel once the answer has begun, and reads the stream to its end. */
async function cancelledOverHttp(
  ctx: ConformContext,
  session: HttpSession,
  method: string,
  params: Json,
): Promise<{ frames: unknown[]; ended: boolean }> {
  const id = ctx.id("cancelled");
  const request = ctx.request(
    method,
    { ...params, _meta: { ...ctx.options.slowMeta, progressToken: ctx.id("token") } },
    id,
  );
  ctx.ledger.noteSent(request);
  const opened = await session.wire.open({ method }, JSON.stringify(request), streamHeaders(session));
  await session.unanswered(ctx.notification("notifications/cancel", { id, reason: "rcp-gen conform" }));
  const { text, ended } = await opened.rest();
  const view = toView({ status: opened.status, headers: opened.headers, body: text, ended });
  const frames = framesOf(view);
  ctx.ledger.received.push(...frames);
  return { frames: frames.filter((frame) => !isResponse(frame) || sameId(frame.id, id)), ended };
}

/** How many responses bore the exchange's id: over stdio, counted after a grace for late duplicates. */
async function answersFor(ctx: ConformContext, exchange: Exchange): Promise<number> {
  const id = exchange.response?.id;
  if (id === undefined) return 0;
  if (ctx.transport === "http")
    return 1 + exchange.strays.filter((frame) => isResponse(frame) && sameId(frame.id, id)).length;
  const session = ctx.session as StdioSession;
  await session.wire.settle(50);
  return session.wire.lines.filter((line) => isResponse(line.frame) && sameId(line.frame.id, id)).length;
}

function codeOf(frame: unknown): unknown {
  return isResponse(frame) ? (frame.error as { code?: unknown } | undefined)?.code : undefined;
}

function resultOfFrame(frame: unknown): unknown {
  return isResponse(frame) ? frame.result : undefined;
}
