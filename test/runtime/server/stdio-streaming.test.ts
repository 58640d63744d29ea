/** Progress (§9), logs (§17.1), cancellation (§7.14), deadlines (§13.1), stdout hygiene and shutdown (§5.1, §7.12) over stdio. */
import { afterEach, describe, expect, it } from "vitest";
import { StdioChild, type Frame } from "./helpers/stdio-child.js";

const children: StdioChild[] = [];
async function started(options: object = {}, initialize: object = {}): Promise<StdioChild> {
  const child = await StdioChild.initialized(options, initialize);
  children.push(child);
  return child;
}
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

const progressFor = (child: StdioChild, token: unknown): Frame[] =>
  child.frames().filter((frame) => frame.method === "notifications/progress" && frame.params.progressToken === token);

describe("progress (§9)", () => {
  it("echoes the token verbatim in every frame, all before the response", async () => {
    const child = await started();
    child.send({ jsonrpc: "2.0", id: 1, method: "x-test/stream", params: { steps: 3, _meta: { progressToken: 77 } } });
    const reply = await child.response(1);
    expect(reply.result).toEqual({ steps: 3 });
    const frames = progressFor(child, 77);
    expect(frames.map((frame) => frame.params.partial)).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }]);
    const lines = child.frames();
    expect(lines.indexOf(frames.at(-1)!)).toBeLessThan(lines.indexOf(reply));
  });

  it("emits no progress for a request without a progressToken", async () => {
    const child = await started();
    await child.request("x-test/stream", { steps: 2 }, 1);
    expect(child.frames().filter((frame) => frame.method !== undefined)).toEqual([]);
  });

  it("clamps progress to 0..1 and never lets it decrease", async () => {
    const child = await started();
    await child.request("x-test/stream", { values: [0.5, 0.2, 1.7, -1, 0.9], _meta: { progressToken: "p" } }, 1);
    expect(progressFor(child, "p").map((frame) => frame.params.progress)).toEqual([0.5, 0.5, 1, 1, 1]);
  });

  it("a synchronous generator handler streams too", async () => {
    const child = await started();
    const reply = await child.request("x-test/sync-stream", { _meta: { progressToken: "s" } }, 1);
    expect(reply.result).toEqual({ done: true });
    expect(progressFor(child, "s").map((frame) => frame.params.stage)).toEqual(["half"]);
  });
});

describe("logs (§17.1)", () => {
  const levelsLogged = (child: StdioChild) =>
    child
      .frames()
      .filter((frame) => frame.method === "notifications/log")
      .map((frame) => frame.params.level);

  it("are silent when the client asked for no level", async () => {
    const child = await started();
    await child.request("x-test/log", {}, 1);
    expect(levelsLogged(child)).toEqual([]);
  });

  it("honour the session level from initialize _meta.logLevel", async () => {
    const child = await started({}, { _meta: { logLevel: "warning" } });
    await child.request("x-test/log", {}, 1);
    expect(levelsLogged(child)).toEqual(["warning", "error"]);
  });

  it("a request _meta.logLevel overrides the session's; string data becomes message", async () => {
    const child = await started({}, { _meta: { logLevel: "error" } });
    await child.request("x-test/log", { _meta: { logLevel: "info" } }, 1);
    expect(levelsLogged(child)).toEqual(["info", "notice", "warning", "error", "info"]);
    const logs = child.frames().filter((frame) => frame.method === "notifications/log");
    expect(logs[0]!.params).toEqual({ level: "info", data: { level: "info" }, logger: "fixture" });
    expect(logs.at(-1)!.params).toEqual({ level: "info", message: "plain text message" });
  });
});

describe("ctx.notify", () => {
  it("sends a request's own notification before its response on a stream (§5.1)", async () => {
    const child = await started();
    const reply = await child.request("x-test/notify", {}, "n");
    const custom = child.frames().filter((frame) => frame.method === "notifications/x-test-custom");
    expect(custom.map((frame) => frame.params)).toEqual([{ from: "n" }]);
    expect(child.frames().indexOf(custom[0]!)).toBeLessThan(child.frames().indexOf(reply));
  });
});

describe("cancellation and deadlines (§7.14, §13.1)", () => {
  it("cancel aborts the handler's signal and the request is answered exactly once with -32006", async () => {
    const child = await started();
    child.send({ jsonrpc: "2.0", id: "c", method: "x-test/hang", params: {} });
    child.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: "c", reason: "user" } });
    expect((await child.response("c")).error.code).toBe(-32006);
    await child.stderrIncludes('aborted x-test/hang "c" -32006');
    child.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: "c" } });
    await child.request("ping", {}, "after");
    expect(child.responsesFor("c")).toHaveLength(1);
  });

  it("a cancel after the result was sent is a no-op", async () => {
    const child = await started();
    await child.request("x-test/sleep", { ms: 1 }, "done");
    child.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: "done" } });
    await child.request("ping", {}, "after");
    expect(child.responsesFor("done").map((frame) => frame.result)).toEqual([{ slept: 1 }]);
  });

  it("_meta.deadlineMs answers -32014 even when the handler never settles", async () => {
    const child = await started();
    const reply = await child.request("x-test/hang", { _meta: { deadlineMs: 100 } }, "d");
    expect(reply.error.code).toBe(-32014);
    await child.stderrIncludes('aborted x-test/hang "d" -32014');
  });

  it("§4.7 requests above maxInFlight on one connection are shed with -32011", async () => {
    const child = await started({ limits: { maxInFlight: 2 } });
    for (const id of [1, 2, 3]) child.send({ jsonrpc: "2.0", id, method: "x-test/sleep", params: { ms: 100 } });
    expect((await child.response(3)).error.code).toBe(-32011);
    expect((await child.response(2)).result).toEqual({ slept: 100 });
  });

  it("the server's default deadline applies when the request carries none", async () => {
    const child = await started({ limits: { defaultDeadlineMs: 150 } });
    expect((await child.request("x-test/hang", {}, "d")).error.code).toBe(-32014);
  });

  it("requests under the default deadline each expire on their own time, never before it", async () => {
    const child = await started({ limits: { defaultDeadlineMs: 150 } });
    const sentAt = new Map<string, number>();
    const send = (id: string, method: string): void => {
      sentAt.set(id, performance.now());
      child.send({ jsonrpc: "2.0", id, method, params: {} });
    };
    send("first", "x-test/hang");
    await new Promise((wait) => setTimeout(wait, 60));
    send("second", "x-test/hang");
    send("quick", "x-test/echo");
    const [first, second, quick] = await Promise.all(["first", "second", "quick"].map((id) => child.response(id)));
    expect([first!.error?.code, second!.error?.code, quick!.error]).toEqual([-32014, -32014, undefined]);
    for (const id of ["first", "second"]) {
      const answeredAt = child.arrivals.find((arrival) => arrival.frame?.id === id)!.at;
      // A clock tick of slack between the two processes' monotonic clocks.
      expect(answeredAt - sentAt.get(id)!, id).toBeGreaterThanOrEqual(148);
    }
  });
});

describe("stdout stays protocol-only (§5.1)", () => {
  it("a handler's console.log and process.stdout.write go to stderr", async () => {
    const child = await started();
    expect((await child.request("x-test/noisy", {}, 1)).result).toEqual({ quiet: true });
    await child.stderrIncludes("raw stdout noise");
    expect(child.arrivals.every((arrival) => arrival.frame !== undefined)).toBe(true);
    expect(child.stderr).toContain("console.log noise");
  });

  it("frames split at every byte, multi-byte UTF-8, CRLF and blank lines are read correctly", async () => {
    const child = await started();
    const bytes = Buffer.from(`\r\n\n{"jsonrpc":"2.0","id":"u","method":"ping","params":{"nonce":"héllo ✓ 𝄞"}}\r\n`);
    for (const byte of bytes) child.writeRaw(Buffer.of(byte));
    expect((await child.response("u")).result).toEqual({ nonce: "héllo ✓ 𝄞" });
  });

  it("§15.5 an oversized line is -32013 and the connection goes on", async () => {
    const child = await started({ limits: { maxMessageBytes: 256 } });
    child.send({ jsonrpc: "2.0", id: "big", method: "ping", params: { nonce: "x".repeat(1000) } });
    const tooLarge = await child.next((frame) => frame.error?.code === -32013);
    expect(tooLarge.id).toBeNull();
    expect((await child.request("ping", { nonce: 1 }, "next")).result).toEqual({ nonce: 1 });
  });
});

describe("shutdown and EOF (§7.12, §13.1)", () => {
  it("EOF finishes in-flight requests, flushes their responses and exits 0", async () => {
    const child = await started();
    child.send({ jsonrpc: "2.0", id: "inflight", method: "x-test/sleep", params: { ms: 200 } });
    child.endInput();
    expect(await child.exited).toBe(0);
    expect(child.responsesFor("inflight").map((frame) => frame.result)).toEqual([{ slept: 200 }]);
  });

  it("after the shutdown response nothing new is processed (-32600); in-flight work still completes", async () => {
    const child = await started();
    const lines = [
      { jsonrpc: "2.0", id: "before", method: "x-test/sleep", params: { ms: 150 } },
      { jsonrpc: "2.0", id: "bye", method: "shutdown", params: {} },
      { jsonrpc: "2.0", id: "late", method: "ping" },
    ];
    // One write, so "late" is already buffered when shutdown is answered.
    child.writeRaw(lines.map((message) => JSON.stringify(message) + "\n").join(""));
    expect(await child.exited).toBe(0);
    expect(child.frames().map((frame) => frame.id)).toEqual(["init", "bye", "late", "before"]);
    expect(child.responsesFor("late")[0]!.error.code).toBe(-32600);
  });
});
