/**
 * Batches (§11): one response per request member, none for notifications, `[]` is a single
 * -32600, a batch of notifications gets nothing back, a bad member fails alone, and gating
 * applies per member. Over HTTP a batch is posted to the base path.
 */
import { shown, skip, verdict, type CaseVerdict, type CheckEntry, type Verdict } from "../check.js";
import type { ConformContext } from "../context.js";
import type { HttpView } from "../session.js";
import { isFrame } from "../session.js";

type Frame = Record<string, unknown>;

function members(reply: unknown): Frame[] | undefined {
  return Array.isArray(reply) ? reply.filter(isFrame) : undefined;
}

function byId(reply: unknown, id: unknown): Frame | undefined {
  return members(reply)?.find((member) => member.id === id);
}

const codeOf = (frame: Frame | undefined): unknown => (frame?.error as { code?: unknown } | undefined)?.code;

/** Over HTTP, a server that serves no batch at its base path says so with 404 or 405. */
function notServed(http: HttpView | undefined): boolean {
  return http !== undefined && (http.status === 404 || http.status === 405);
}

export const batchChecks: CheckEntry[] = [
  {
    id: "batch.rules",
    section: "§11",
    level: "L0",
    phase: "main",
    title: "batches",
    async run(ctx): Promise<CaseVerdict[] | Verdict> {
      const a = ctx.id("batch-a");
      const b = ctx.id("batch-b");
      const first = await ctx.session.batch([ctx.request("ping", { nonce: "a" }, a), ctx.request("info", {}, b)]);
      if (notServed(first.http))
        return skip(`the server serves no batches at the base path (HTTP ${first.http!.status})`);
      const cases: CaseVerdict[] = [
        {
          key: "one-per-request",
          title: "a batch of two requests gets an array of their two responses",
          ...verdict(
            members(first.reply)?.length === 2 &&
              byId(first.reply, a)?.result !== undefined &&
              byId(first.reply, b)?.result !== undefined,
            `answered with ${shown(first.reply)}`,
          ),
        },
      ];
      const c = ctx.id("batch-c");
      const mixed = await ctx.session.batch([ctx.request("ping", {}, c), ctx.notification("ping")]);
      cases.push({
        key: "notification-member",
        title: "a notification member gets no entry",
        ...verdict(
          members(mixed.reply)?.length === 1 && byId(mixed.reply, c) !== undefined,
          `answered with ${shown(mixed.reply)}`,
        ),
      });
      const empty = await ctx.session.batch([]);
      cases.push({
        key: "empty",
        title: "an empty batch gets one -32600 with id null, not an array",
        ...verdict(
          isFrame(empty.reply) && empty.reply.id === null && codeOf(empty.reply) === -32600,
          `answered with ${shown(empty.reply)}`,
        ),
      });
      const quiet = await ctx.session.batch([
        ctx.notification("ping"),
        ctx.notification("notifications/cancel", { id: "x" }),
      ]);
      cases.push({
        key: "only-notifications",
        title: "a batch of notifications gets nothing back",
        ...verdict(quiet.reply === undefined, `answered with ${shown(quiet.reply)}`),
      });
      const d = ctx.id("batch-d");
      const bad = await ctx.session.batch([1, ctx.request("ping", {}, d)]);
      const invalid = members(bad.reply)?.find((member) => member.id === null);
      cases.push({
        key: "bad-member",
        title: "a member that is not a request gets -32600 with id null; the others are served",
        ...verdict(
          codeOf(invalid) === -32600 && byId(bad.reply, d)?.result !== undefined,
          `answered with ${shown(bad.reply)}`,
        ),
      });
      cases.push(await gatingCase(ctx));
      return cases;
    },
  },
];

async function gatingCase(ctx: ConformContext): Promise<CaseVerdict> {
  const key = "gating-per-member";
  const title = "gating applies per member: an unadvertised method's member gets -32003, the others are served";
  const unadvertised = ctx.userMethods().find((method) => !ctx.advertises(method));
  if (unadvertised === undefined) return { key, title, status: "skip", detail: "every method is advertised" };
  const e = ctx.id("batch-e");
  const f = ctx.id("batch-f");
  const sampled = ctx.sampler().validParams(unadvertised, { gated: false });
  const params = "params" in sampled ? sampled.params : {};
  const { reply } = await ctx.session.batch([ctx.request("ping", {}, e), ctx.request(unadvertised, params, f)]);
  return {
    key,
    title,
    ...verdict(
      byId(reply, e)?.result !== undefined && codeOf(byId(reply, f)) === -32003,
      `answered with ${shown(reply)}`,
    ),
  };
}
