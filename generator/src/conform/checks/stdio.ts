/**
 * stdio framing (§5.1): stdout carries protocol frames only, blank lines between messages
 * are tolerated, a message split across writes is read whole, two messages in one write are
 * both read, and EOF on stdin ends the server.
 */
import { shown, verdict, type CheckEntry } from "../check.js";
import { resultOf, type ConformContext } from "../context.js";
import { isResponse } from "../session.js";
import type { StdioSession } from "../stdio-session.js";

async function pingsAnswered(ctx: ConformContext, write: (session: StdioSession, frames: string[]) => Promise<void>) {
  const session = ctx.session as StdioSession;
  const ids = [ctx.id("frame"), ctx.id("frame")];
  const mark = session.wire.lines.length;
  const frames = ids.map((id) => JSON.stringify(ctx.request("ping", { nonce: id }, id)));
  ctx.ledger.noteSent(frames.map((frame) => JSON.parse(frame) as unknown));
  await write(session, frames);
  const answered = await Promise.all(
    ids.map((id) =>
      session.wire.waitFor((line) => isResponse(line.frame) && line.frame.id === id, mark, ctx.options.timeoutMs),
    ),
  );
  return verdict(
    answered.every((line, index) => (line?.frame as { result?: { nonce?: unknown } }).result?.nonce === ids[index]),
    `answers: ${answered.map((line) => shown(line?.frame, 80)).join(", ")}`,
  );
}

export const stdioChecks: CheckEntry[] = [
  {
    id: "stdio.blank-lines",
    section: "§5.1",
    level: "L0",
    on: "stdio",
    phase: "main",
    title: "blank lines between messages are tolerated",
    run: (ctx) => pingsAnswered(ctx, (session, [a, b]) => session.wire.write(`\n\n${a}\n\n\n${b}\n`)),
  },
  {
    id: "stdio.split-message",
    section: "§5.1",
    level: "L0",
    on: "stdio",
    phase: "main",
    title: "a message split across writes is read whole",
    run: (ctx) =>
      pingsAnswered(ctx, async (session, [a, b]) => {
        const line = `${a}\n${b}\n`;
        await session.wire.write(line.slice(0, 11));
        await session.wire.settle(30);
        await session.wire.write(line.slice(11, line.length - 7));
        await session.wire.settle(30);
        await session.wire.write(line.slice(line.length - 7));
      }),
  },
  {
    id: "stdio.two-in-one-write",
    section: "§5.1",
    level: "L0",
    on: "stdio",
    phase: "main",
    title: "two messages in one write are both read",
    run: (ctx) => pingsAnswered(ctx, (session, [a, b]) => session.wire.write(`${a}\n${b}\n`)),
  },
  {
    id: "stdio.protocol-only",
    section: "§5.1",
    level: "L0",
    on: "stdio",
    phase: "main",
    title: "stdout carries JSON-RPC frames only (no logs, no BOM)",
    run(ctx) {
      const stray = ctx.ledger.allReceived().filter((value) => typeof value === "string");
      return verdict(stray.length === 0, `${stray.length} stdout lines are not JSON, e.g. ${shown(stray[0], 100)}`);
    },
  },
  {
    id: "lifecycle.shutdown",
    section: "§7.12",
    level: "L0",
    phase: "ending",
    title: "shutdown answers with a result object",
    async run(ctx) {
      const exchange = await ctx.call("shutdown");
      return verdict(resultOf(exchange) !== undefined, `shutdown: ${shown(exchange.response)}`);
    },
  },
  {
    id: "lifecycle.after-shutdown",
    section: "§13.1",
    level: "L0",
    on: "stdio",
    phase: "ending",
    title: "a request received after the shutdown response is not processed",
    async run(ctx) {
      const session = ctx.session as StdioSession;
      const id = ctx.id("late");
      const mark = session.wire.lines.length;
      await session.wire.write(`${JSON.stringify(ctx.request("info", {}, id))}\n`);
      const answer = await session.wire.waitFor((line) => isResponse(line.frame) && line.frame.id === id, mark, 500);
      return verdict(
        answer === undefined || !("result" in (answer.frame as object)),
        `info after shutdown was answered with a result: ${shown(answer?.frame, 100)}`,
      );
    },
  },
  {
    id: "stdio.eof-exits",
    section: "§5.1, §7.12",
    level: "L0",
    should: true,
    on: "stdio",
    phase: "ending",
    title: "EOF on stdin ends the server",
    async run(ctx) {
      const session = ctx.session as StdioSession;
      const exited = await session.wire.end(ctx.options.timeoutMs);
      return verdict(exited, `still running ${ctx.options.timeoutMs} ms after EOF`);
    },
  },
];
