/**
 * Frames waiting for a slow reader (§9, §15.5): responses never dropped and in order, each
 * request's notifications bounded, progress coalesced to the latest, and the same behind
 * `server.fetch`, whose SSE body is a ReadableStream nobody reads for a while.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject, ProgressEvent } from "../../../runtime/src/protocol/types.js";
import { NOTIFICATIONS_KEPT_PER_REQUEST, OutboundQueue } from "../../../runtime/src/server/outbound-queue.js";
import { createServerRuntime } from "../../../runtime/src/server/create-server-runtime.js";
import { hardeningHandlers } from "../../fixtures/hardening/hardening-handlers.js";
import { hardeningProtocol } from "../../fixtures/hardening/hardening-protocol.js";
import { testCapabilities } from "../../fixtures/test-protocol.js";

/** A sink that takes `room` writes, then says it is behind until drained by hand. */
function slowSink(room: number) {
  const written: string[] = [];
  let drain: (() => void) | undefined;
  return {
    written,
    sink: {
      write: (text: string) => written.push(text) < room,
      onDrain: (listener: () => void) => void (drain = listener),
    },
    /** The reader catches up: `more` further writes fit before it is behind again. */
    read: (more = Number.POSITIVE_INFINITY) => {
      room = written.length + more;
      const listener = drain;
      drain = undefined;
      listener?.();
    },
  };
}

const owner = (id: number) => ({ method: "retrieve", id });

describe("OutboundQueue", () => {
  it("writes at once while the reader keeps up", () => {
    const { sink, written } = slowSink(Number.POSITIVE_INFINITY);
    const queue = new OutboundQueue(sink);
    queue.notification(owner(1), "p1", true);
    queue.response("r1");
    expect(written).toEqual(["p1", "r1"]);
    expect(queue.congested).toBe(false);
  });

  it("behind: keeps responses, bounds each request's notifications, the latest progress wins, order holds", async () => {
    const { sink, written, read } = slowSink(1);
    const reports: string[] = [];
    const congestion: boolean[] = [];
    const queue = new OutboundQueue(sink, {
      report: (line) => reports.push(line),
      onCongestion: (congested) => congestion.push(congested),
    });
    const [first, second] = [owner(1), owner(2)];
    queue.notification(first, "a0", true);
    const total = NOTIFICATIONS_KEPT_PER_REQUEST + 100;
    for (let n = 1; n <= total; n++) queue.notification(first, `a${n}`, true);
    queue.notification(first, "log", false);
    queue.notification(second, "b1", true);
    queue.response("error-2");
    queue.requestDone(second);
    queue.response("result-1");
    queue.requestDone(first);
    expect(reports).toEqual([
      `rcp: retrieve (id 1): the reader fell behind; 100 progress frames coalesced, 1 notifications dropped`,
    ]);
    const idle = queue.idle();
    read();
    await idle;
    const kept = Array.from({ length: NOTIFICATIONS_KEPT_PER_REQUEST - 1 }, (_, i) => `a${i + 1}`);
    expect(written).toEqual(["a0", ...kept, `a${total}`, "b1", "error-2", "result-1"]);
    expect(congestion).toEqual([true, false]);
  });

  it("a reader that catches up in steps gets everything once, in order; abandon drops the rest", async () => {
    const { sink, written, read } = slowSink(1);
    const queue = new OutboundQueue(sink);
    for (let n = 0; n < 10; n++) queue.response(`r${n}`);
    read(3);
    expect(written).toEqual(["r0", "r1", "r2", "r3"]);
    read(2);
    expect(written).toHaveLength(6);
    const idle = queue.idle();
    queue.abandon();
    await idle;
    queue.response("after");
    expect(written).toHaveLength(6);
  });
});

describe("server.fetch: an SSE body nobody reads while the handler yields", () => {
  it("20,000 progress events: the few that fit, then the latest, then the response; the rest coalesced", async () => {
    const EVENTS = 20_000;
    let finished!: () => void;
    const yielded = new Promise<void>((resolve) => (finished = resolve));
    const diagnostics: string[] = [];
    const server = createServerRuntime(hardeningProtocol, {
      info: { name: "slow-fetch", version: "1" },
      capabilities: testCapabilities,
      conformance: "L0",
      diagnostics: (line) => diagnostics.push(line),
      handlers: {
        ...hardeningHandlers,
        // eslint-disable-next-line @typescript-eslint/require-await -- yields without awaiting, as the flood this test is about
        "x-harden/flood": async function* (): AsyncGenerator<ProgressEvent, JsonObject> {
          for (let event = 1; event <= EVENTS; event++)
            yield { progress: event / EVENTS, message: `#${event} ${"x".repeat(200)}` };
          finished();
          return { events: EVENTS };
        },
      },
    });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "x-harden/flood",
      params: { _meta: { progressToken: 1 } },
    });
    const response = await server.fetch(
      new Request("http://127.0.0.1/rcp/x-harden/flood", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body,
      }),
    );
    await yielded;
    const frames = (await response.text())
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => JSON.parse(block.slice(6)) as { id?: number; params?: { message: string } });
    const numbers = frames.slice(0, -1).map((frame) => Number(/^#(\d+)/.exec(frame.params!.message)![1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers.at(-1)).toBe(EVENTS);
    expect(numbers.length).toBeLessThan(1000);
    expect(frames.at(-1)).toMatchObject({ id: 7, result: { events: EVENTS } });
    const coalesced = Number(/(\d+) progress frames coalesced/.exec(diagnostics.join("\n"))![1]);
    expect(coalesced + numbers.length).toBe(EVENTS);
  });
});
