/**
 * Client faults the client tests do not cover (§13.1, §4.7, §5.2): a connection reset
 * mid-stream, a 200 body that is not JSON, a response with both result and error, an SSE
 * frame cut in half, a server that never answers, a stdio server dying with timed calls in
 * flight. Each call settles with a clear error, no timer outlives it, and the
 * client stays usable while its transport is alive.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RcpError } from "../../runtime/src/protocol/errors.js";
import { httpClientTransport } from "../../runtime/src/client/http-transport.js";
import { TransportError } from "../../runtime/src/client/transport.js";
import { connectedStdioClient, failureOf, testClient } from "../runtime/client/peers.js";
import { startMisbehavingPeer, type MisbehavingPeer } from "../fixtures/hardening/misbehaving-http-peer.js";

const liveTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

/** Lets already-due callbacks and cleared timers settle before counting. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Runs `call` and returns how it settled and how many timers it left behind. */
async function observe(call: () => Promise<unknown>) {
  await settle();
  const before = liveTimers();
  const outcome = await call().then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  await settle();
  return { ...outcome, leakedTimers: liveTimers() - before };
}

describe("an HTTP server misbehaving (§5.2, §13.1)", () => {
  let peer: MisbehavingPeer;
  let client: ReturnType<typeof testClient>;
  beforeAll(async () => {
    peer = await startMisbehavingPeer();
    client = testClient(httpClientTransport({ url: peer.base }));
    await client.connect();
  });
  afterAll(async () => {
    await client.close();
    await peer.close();
  });

  const progressSeen: unknown[] = [];
  const search = (fault: string, timeout = 5000) =>
    observe(() =>
      client.call(
        "search",
        { script: "misbehave", fault },
        { timeout, onProgress: (event) => progressSeen.push(event) },
      ),
    );

  it.each([
    ["reset", "a connection reset mid-stream", TransportError],
    ["notJson", "a 200 body that is not JSON", TransportError],
    ["halfFrame", "an SSE frame cut in half by the end of the stream", TransportError],
  ])("%s: %s fails the call with a TransportError and leaves no timer", async (fault, _what, kind) => {
    const seen = await search(fault);
    expect(seen.error).toBeInstanceOf(kind);
    expect(seen.leakedTimers).toBeLessThanOrEqual(0);
    expect((await search("ok")).value).toEqual({ ok: true });
  });

  it("a response with both result and error fails the call with that error: a result beside an error is not trusted", async () => {
    const seen = await search("resultAndError");
    expect(seen.error).toMatchObject({ code: -32603, message: "both" });
    expect(seen.leakedTimers).toBeLessThanOrEqual(0);
  });

  it("§13.1 a server that never answers: -32014 at the timeout, the request is aborted, no timer left", async () => {
    const abandonedBefore = peer.abandoned;
    const seen = await search("silent", 150);
    expect((seen.error as RcpError).code).toBe(-32014);
    expect(seen.leakedTimers).toBeLessThanOrEqual(0);
    for (let tries = 0; peer.abandoned === abandonedBefore && tries < 50; tries++)
      await new Promise((r) => setTimeout(r, 20));
    expect(peer.abandoned).toBe(abandonedBefore + 1);
    expect((await search("ok")).value).toEqual({ ok: true });
  });
});

describe("a stdio server dying with timed calls in flight (§13.1)", () => {
  it("every pending call fails with a TransportError, their timers are cleared, later calls fail fast", async () => {
    const client = await connectedStdioClient();
    await settle();
    const before = liveTimers();
    const pending = [
      failureOf(client.call("search", { script: "never" }, { timeout: 60_000 })),
      failureOf(
        client.call(
          "search",
          { script: "never" },
          { timeout: 60_000, resetTimeoutOnProgress: true, maxTotalTimeout: 90_000, onProgress: () => {} },
        ),
      ),
    ];
    const dying = failureOf(client.call("search", { script: "exit" }, { timeout: 60_000 }));
    const errors = await Promise.all([...pending, dying]);
    for (const error of errors) expect(error).toBeInstanceOf(TransportError);
    await settle();
    expect(liveTimers()).toBeLessThanOrEqual(before);
    expect(await failureOf(client.call("search", { script: "echo" }, { timeout: 60_000 }))).toBeInstanceOf(
      TransportError,
    );
    await client.close();
  });

  it("§13.1 a call that timed out leaves the client usable and no timer behind", async () => {
    const client = await connectedStdioClient();
    const seen = await observe(() => client.call("search", { script: "never" }, { timeout: 100 }));
    expect((seen.error as RcpError).code).toBe(-32014);
    expect(seen.leakedTimers).toBeLessThanOrEqual(0);
    expect(await client.call("search", { script: "echo", n: 1 })).toEqual({ params: { script: "echo", n: 1 } });
    await client.close();
  });
});
