/**
 * BaseClient over a real child process that misbehaves on purpose (ndjson-peer): id
 * correlation, progress and log routing, server errors, timeouts and cancellation.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { LogMessage, ProgressEvent } from "../../../runtime/src/protocol/types.js";
import type { BaseClient } from "../../../runtime/src/client/base-client.js";
import { CallError } from "../../../runtime/src/client/call-error.js";
import { TransportError } from "../../../runtime/src/client/transport.js";
import { RcpError } from "../../../runtime/src/protocol/errors.js";
import type { ClientTestMethods } from "../../fixtures/client-test-protocol.js";
import { connectedStdioClient, failureOf, ndjsonPeerTransport, testClient } from "./peers.js";

let client: BaseClient<ClientTestMethods>;
afterEach(() => client?.close());

describe("correlation by id (§4.7)", () => {
  it("§4.7 answers arriving out of order reach the call that sent each request", async () => {
    client = await connectedStdioClient();
    const calls = [300, 150, 10].map((delayMs) => client.call("search", { script: "delay", delayMs }));
    expect(await Promise.all(calls)).toEqual([{ delayed: 300 }, { delayed: 150 }, { delayed: 10 }]);
  });

  it("§4.7 answers with unknown ids or an id of the wrong JSON type are discarded", async () => {
    client = await connectedStdioClient();
    expect(await client.call("search", { script: "wrongIds" })).toEqual({ right: true });
  });

  it("§13.1 a second answer to the same id is discarded; the call settled once", async () => {
    client = await connectedStdioClient();
    expect(await client.call("search", { script: "twice" })).toEqual({ answer: 1 });
    expect(await client.call("ping", { nonce: "after" })).toEqual({ nonce: "after" });
  });

  it("§5.1 lines that are not JSON-RPC objects are skipped and the connection goes on", async () => {
    client = await connectedStdioClient();
    expect(await client.call("search", { script: "garbage" })).toEqual({ survived: true });
    expect(await client.call("ping", { nonce: 7 })).toEqual({ nonce: 7 });
  });
});

describe("request _meta", () => {
  it("§9 a call with onProgress carries a progressToken unique among in-flight calls; one without carries none", async () => {
    client = await connectedStdioClient();
    const onProgress = (): void => {};
    const [first, second, plain] = await Promise.all([
      client.call("search", { script: "echo" }, { onProgress }),
      client.call("search", { script: "echo" }, { onProgress }),
      client.call("search", { script: "echo" }),
    ]);
    const tokenOf = (result: Record<string, unknown>): unknown =>
      (result.params as { _meta: { progressToken: unknown } })._meta.progressToken;
    expect(typeof tokenOf(first)).toBe("string");
    expect(tokenOf(first)).not.toEqual(tokenOf(second));
    expect(plain).toEqual({ params: { script: "echo" } });
  });

  it("§17.1 onLog sets _meta.logLevel (the requested one, else the least severe) and meta adds keys", async () => {
    client = await connectedStdioClient();
    const onLog = (): void => {};
    const warned = await client.call(
      "search",
      { script: "echo" },
      { onLog, logLevel: "warning", meta: { traceId: "t-1" } },
    );
    expect(warned.params).toMatchObject({ _meta: { logLevel: "warning", traceId: "t-1" } });
    const everything = await client.call("search", { script: "echo" }, { onLog });
    expect(everything.params).toMatchObject({ _meta: { logLevel: "debug" } });
  });

  it("§17.1 an unknown log level is -32602 naming _meta.logLevel, before any I/O", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(client.call("search", { script: "echo" }, { onLog: () => {}, logLevel: "loud" }));
    expect(error.code).toBe(-32602);
    expect(error.data?.field).toBe("_meta.logLevel");
  });
});

describe("progress and log routing (§9, §17.1)", () => {
  it("§9 progress reaches its call by token; unknown tokens, malformed frames and frames after the response are dropped", async () => {
    client = await connectedStdioClient();
    const progress: ProgressEvent[] = [];
    const logs: LogMessage[] = [];
    const result = await client.call(
      "search",
      { script: "progress" },
      { onProgress: (event) => progress.push(event), onLog: (log) => logs.push(log) },
    );
    expect(result).toEqual({ done: true });
    expect(progress).toEqual([
      { progress: 0.2, stage: "recall", partial: { hits: ["d1"] } },
      { progress: 0.6, stage: "rerank", message: "reranked 3/5" },
    ]);
    expect(logs).toEqual([{ level: "info", message: "for you" }]);
    // The progress frame written after the response was read without harm.
    expect(await client.call("ping", { nonce: 1 })).toEqual({ nonce: 1 });
  });

  it("§9 a throwing onProgress fails its call and cancels it on the wire", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(
      client.call(
        "search",
        { script: "progress" },
        {
          onProgress: () => {
            throw new Error("consumer broke");
          },
        },
      ),
    );
    expect(error.message).toBe("consumer broke");
  });
});

describe("server errors (§12)", () => {
  it("§12.2 a server error becomes a CallError with code, message, data and the code's retry policy", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(
      client.call("search", {
        script: "error",
        error: { code: -32011, message: "slow down", data: { retryAfterMs: 50 } },
      }),
    );
    expect(error).toBeInstanceOf(CallError);
    expect(error).toBeInstanceOf(RcpError);
    expect(error).toMatchObject({ code: -32011, message: "slow down", data: { retryAfterMs: 50 }, retryable: "yes" });
  });

  it("§12 an unrecognised code is a generic failure with its own code, retry policy unknown", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(client.call("search", { script: "error", error: { code: -32099, message: "new" } }));
    expect(error).toMatchObject({ code: -32099, message: "new", retryable: "maybe" });
  });

  it("§12 a malformed error object still fails the call, as -32603 carrying what was received", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(client.call("search", { script: "error", error: "oops" }));
    expect(error).toMatchObject({ code: -32603, data: { received: "oops" } });
  });
});

describe("timeouts and cancellation (§7.14, §13.1)", () => {
  it("§13.1 a local timeout rejects with -32014, sends notifications/cancel, and the late answer is discarded", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(client.call("search", { script: "delay", delayMs: 400 }, { timeout: 50 }));
    expect(error).toMatchObject({ code: -32014, retryable: "yes", data: { timeoutMs: 50 } });
    // Answered after the timed-out call's late answer has arrived; it must get its own.
    expect(await client.call("search", { script: "delay", delayMs: 450 })).toEqual({ delayed: 450 });
    const { cancelled } = await client.call("search", { script: "cancels" });
    expect(cancelled).toHaveLength(1);
  });

  it("§13.1 defaultTimeout applies to connect() and to calls that set no timeout", async () => {
    client = testClient(ndjsonPeerTransport(), { defaultTimeout: 2000 });
    await client.connect();
    expect((await failureOf(client.call("search", { script: "never" }))).code).toBe(-32014);
  });

  it("§13.1 resetTimeoutOnProgress keeps a call alive while progress flows, up to maxTotalTimeout", async () => {
    client = await connectedStdioClient();
    // Answers after 1100 ms with a progress frame every 100 ms.
    const ticking = { script: "ticking", ticks: 10, everyMs: 100 };
    const onProgress = (): void => {};
    await expect(
      client.call("search", ticking, { timeout: 700, resetTimeoutOnProgress: true, onProgress }),
    ).resolves.toEqual({
      ticks: 10,
    });
    expect((await failureOf(client.call("search", ticking, { timeout: 700, onProgress }))).code).toBe(-32014);
    const capped = client.call("search", ticking, {
      timeout: 700,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: 800,
      onProgress,
    });
    expect((await failureOf(capped)).code).toBe(-32014);
  });

  it("§9 resetTimeoutOnProgress alone asks for progress (a progressToken), so the clock is reset without onProgress", async () => {
    client = await connectedStdioClient();
    const ticking = { script: "ticking", ticks: 10, everyMs: 100 };
    await expect(client.call("search", ticking, { timeout: 700, resetTimeoutOnProgress: true })).resolves.toEqual({
      ticks: 10,
    });
    const echoed = (await client.call(
      "search",
      { script: "echo" },
      { resetTimeoutOnProgress: true, timeout: 5000 },
    )) as {
      params: { _meta?: { progressToken?: unknown } };
    };
    expect(echoed.params._meta?.progressToken).toEqual(expect.any(String));
  });

  it("§7.14 aborting the signal rejects with -32006 and sends notifications/cancel with the request's id", async () => {
    client = await connectedStdioClient();
    const controller = new AbortController();
    const pending = client.call("search", { script: "never" }, { signal: controller.signal });
    await client.call("ping", {});
    controller.abort();
    expect(await failureOf(pending)).toMatchObject({ code: -32006, retryable: "n/a" });
    const { cancelled, unanswered } = await client.call("search", { script: "cancels" });
    expect(cancelled).toEqual(unanswered);
    expect(cancelled).toHaveLength(1);
  });

  it("§7.14 a signal aborted right after the call starts rejects with -32006; nothing sent is left running", async () => {
    client = await connectedStdioClient();
    const controller = new AbortController();
    const answered = client.call("search", { script: "delay", delayMs: 200 }, { signal: controller.signal });
    controller.abort();
    expect(await failureOf(answered)).toMatchObject({ code: -32006 });
    const second = new AbortController();
    const unanswered = client.call("search", { script: "never" }, { signal: second.signal });
    second.abort();
    expect(await failureOf(unanswered)).toMatchObject({ code: -32006 });
    // A connected client's request leaves at once, so both reached the server, and each was
    // cancelled on the wire (§7.14), the one still running there too.
    const { cancelled, unanswered: open } = await client.call("search", { script: "cancels" });
    expect(open).toHaveLength(1);
    expect(cancelled).toHaveLength(2);
    expect(cancelled).toEqual(expect.arrayContaining(open as unknown[]));
  });

  it("§7.14 an already aborted signal fails the call before anything is sent", async () => {
    client = await connectedStdioClient();
    const error = await failureOf(client.call("search", { script: "never" }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe(-32006);
    expect(await client.call("search", { script: "cancels" })).toEqual({ cancelled: [], unanswered: [] });
  });
});

describe("bounds on what the client reads (§15.5)", () => {
  const limit = 1024 * 1024;
  const bounded = async () => {
    client = testClient(ndjsonPeerTransport(undefined, { maxMessageBytes: limit }));
    await client.connect();
    return client;
  };

  it("a line above maxMessageBytes fails the call it answers with -32013; an oversized progress frame is dropped; the connection goes on", async () => {
    await bounded();
    const error = await failureOf(client.call("search", { script: "huge", bytes: 2 * limit }));
    expect(error).toMatchObject({ code: -32013, retryable: "no", data: { limit } });
    expect(error.message).toMatch(/exceeds maxMessageBytes/);
    const progress: ProgressEvent[] = [];
    const call = client.call(
      "search",
      { script: "hugeProgress", bytes: 2 * limit },
      { onProgress: (e) => progress.push(e) },
    );
    expect(await call).toEqual({ small: true });
    expect(progress).toEqual([]);
    expect(await client.call("ping", { nonce: 7 })).toEqual({ nonce: 7 });
  });

  it("a line above the limit whose first bytes name no request ends the connection; every pending call fails", async () => {
    await bounded();
    const pending = failureOf(client.call("search", { script: "never" }));
    const error = await failureOf(client.call("search", { script: "hugeIdLast", bytes: 2 * limit }));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/exceeds maxMessageBytes .* names no request/);
    expect(await pending).toBe(error);
    expect(await failureOf(client.call("ping", {}))).toBe(error);
  });
});
