/**
 * Notifications are never answered (§4.5), whatever they name, before initialize or after,
 * well-formed or not; and a server emits no notification a client did not ask for (§7.1, §9).
 */
import { shown, skip, verdict, type CaseVerdict, type CheckEntry, type Phase } from "../check.js";
import type { ConformContext } from "../context.js";
import { isFrame } from "../session.js";

function notificationCases(ctx: ConformContext): Array<[string, string, Record<string, unknown>]> {
  const probe = ctx.probe();
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["open-method", "a notification naming ping", ctx.notification("ping")],
    ["unknown-method", "a notification naming a method RCP does not define", ctx.notification("conform/not-a-method")],
    ["reserved-unknown", "an unknown notifications/* method", ctx.notification("notifications/x-conform-unknown")],
    [
      "cancel-unknown-id",
      "notifications/cancel for an id never sent",
      ctx.notification("notifications/cancel", { id: "conform-never" }),
    ],
    [
      "malformed-params",
      "a notification with malformed params",
      ctx.notification("ping", { nonce: { not: "scalar" }, _meta: 7 }),
    ],
  ];
  if (probe !== undefined)
    cases.unshift([
      "gated-method",
      `a notification naming ${probe.method} (gated)`,
      ctx.notification(probe.method, probe.params),
    ]);
  return cases;
}

function notAnsweredEntry(phase: Phase): CheckEntry {
  return {
    id: phase === "handshake" ? "notify.unanswered-before-initialize" : "notify.unanswered",
    section: "§4.5, §14.1",
    level: "L0",
    phase,
    title:
      phase === "handshake" ? "notifications before initialize are never answered" : "notifications are never answered",
    async run(ctx): Promise<CaseVerdict[]> {
      const results: CaseVerdict[] = [];
      for (const [key, title, frame] of notificationCases(ctx)) {
        const { answers, http } = await ctx.session.unanswered(frame);
        const answered = answers.filter((answer) => !isFrame(answer) || !("method" in answer));
        const status = http === undefined || http.status < 300 ? "" : ` (HTTP ${http.status})`;
        results.push({
          key,
          title: `${title} is not answered`,
          ...verdict(
            answered.length === 0,
            `answered with ${answered.map((answer) => shown(answer)).join(", ")}${status}`,
          ),
        });
      }
      return results;
    },
  };
}

export const notificationChecks: CheckEntry[] = [notAnsweredEntry("handshake"), notAnsweredEntry("main")];

/** Run after everything else of the main phase: the whole run is the evidence. */
export const unrequestedNotificationChecks: CheckEntry[] = [
  {
    id: "notify.no-unrequested-progress",
    section: "§9",
    level: "L0",
    phase: "main",
    title: "progress is sent only for requests that carried a progressToken, echoing it",
    run(ctx) {
      const progress = notificationsNamed(ctx, "progress");
      const stray = progress.filter(
        (frame) => !ctx.ledger.tokens.has((frame.params as { progressToken?: unknown })?.progressToken),
      );
      return verdict(
        stray.length === 0,
        `${stray.length} progress frames carried no token this run sent: ${shown(stray[0])}`,
      );
    },
  },
  {
    id: "notify.no-unrequested-logs",
    section: "§7.1, §17.1",
    level: "L0",
    phase: "main",
    title: "no notifications/log reaches a client that neither advertised log nor asked for a level",
    run(ctx) {
      if (ctx.ledger.logsAsked) return skip("this run asked for logs");
      const logs = notificationsNamed(ctx, "log");
      return verdict(logs.length === 0, `${logs.length} unrequested log frames, e.g. ${shown(logs[0])}`);
    },
  },
];

function notificationsNamed(ctx: ConformContext, role: "progress" | "log"): Array<Record<string, unknown>> {
  const method =
    Object.values(ctx.protocol.notifications).find((notification) => notification.role === role)?.method ??
    `${ctx.protocol.notificationPrefix}${role}`;
  return ctx.ledger
    .allReceived()
    .filter((frame): frame is Record<string, unknown> => isFrame(frame) && frame.method === method);
}
