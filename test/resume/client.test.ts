/**
 * The HTTP client's resumption (docs/resumable-streams.md): on a server that advertises
 * `x-rcp-resumable` a cut stream is resumed on its own and the caller sees one stream and one
 * result; a client that cannot resume fails as it always did (§13.1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BaseClient } from "../../runtime/src/client/base-client.js";
import { httpClientTransport, type HttpClientTransportOptions } from "../../runtime/src/client/http-transport.js";
import { TransportError } from "../../runtime/src/client/transport.js";
import { testProtocol } from "../fixtures/test-protocol.js";
import { chaos, type StreamMethods } from "./chaos.js";
import { cuttingProxy, type CuttingProxy } from "./cutting-proxy.js";
import { eventually, startServer, type TestServer } from "./peers.js";

function client(options: HttpClientTransportOptions) {
  return new BaseClient<StreamMethods>({
    protocol: testProtocol,
    transport: httpClientTransport(options),
    clientInfo: { name: "resume-client", version: "1" },
    capabilities: { streaming: {} },
  });
}

/** A call of `steps` steps gets its one result, and every progress step once, in order. */
async function expectOneStream(caller: ReturnType<typeof client>, steps: number): Promise<void> {
  await caller.connect();
  const seen: number[] = [];
  const result = await caller.call(
    "x-test/stream",
    { steps, ms: 5 },
    { onProgress: (event) => void seen.push((event.partial as { step: number }).step) },
  );
  expect(result).toEqual({ steps });
  expect(seen).toEqual(Array.from({ length: steps }, (_, index) => index + 1));
}

let server: TestServer;
let plain: TestServer;
let proxy: CuttingProxy;
let plainProxy: CuttingProxy;
beforeAll(async () => {
  server = await startServer({ resumable: { graceMs: 2000, retryMs: 5 } });
  plain = await startServer({});
  proxy = await cuttingProxy(server.url, { chance: 1, span: 1200 });
  plainProxy = await cuttingProxy(plain.url, { chance: 1, span: 0, anchor: "data" });
});
afterAll(async () => {
  await proxy.close();
  await plainProxy.close();
  await server.close();
  await plain.close();
});

describe("a client on a server that offers resumption", () => {
  it("chaos: 200 streaming calls through a proxy that cuts connections mid-stream, each answered once, each frame once and in order, no handler twice", async () => {
    const outcome = await chaos({ calls: 200 });
    expect(outcome.faults).toEqual([]);
    expect(outcome.cuts).toBeGreaterThan(100);
    expect(outcome.reconnects).toBeGreaterThanOrEqual(outcome.cuts - 10);
  });

  it("a call cut on every connection still gets its one result, and onReconnect hears each reconnect", async () => {
    const reconnects: Array<{ method: string; id: unknown; attempt: number; lastEventId: string }> = [];
    const caller = client({
      url: proxy.url,
      resume: { initialDelayMs: 1, onReconnect: (info) => void reconnects.push(info) },
    });
    await expectOneStream(caller, 12);
    expect(reconnects.length).toBeGreaterThan(0);
    expect(reconnects[0]!.lastEventId).toMatch(/^[0-9a-f-]{36}:\d+$/);
    expect(reconnects[0]).toMatchObject({ method: "x-test/stream", id: expect.anything() as unknown, attempt: 1 });
    await caller.close();
  });

  it("frames already delivered are skipped by their number when a resume replays them again", async () => {
    // The POST is cut; its resume goes past the proxy and asks for the whole stream again, so the
    // server replays frames the caller has seen.
    const fromTheStart: typeof fetch = (input, init) => {
      if (init?.method !== "GET") return fetch(input, init);
      const headers = new Headers(init.headers);
      headers.set("last-event-id", `${headers.get("last-event-id")!.split(":")[0]}:0`);
      return fetch(server.url, { ...init, headers });
    };
    const caller = client({ url: proxy.url, fetch: fromTheStart, resume: { initialDelayMs: 1 } });
    await expectOneStream(caller, 12);
    await caller.close();
  });

  it("cancelling a resumable call aborts its handler at once (DELETE), not after the grace period", async () => {
    const caller = client({ url: server.url });
    await caller.connect();
    const controller = new AbortController();
    const call = caller.call(
      "x-test/stream",
      { steps: 1000, ms: 10 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(call).rejects.toMatchObject({ code: -32006 });
    const aborted = () => [...server.log.aborts.values()].includes(-32006);
    expect(await eventually(aborted)).toBe(true);
    await caller.close();
  });
});

describe("a client that does not resume fails as before (§13.1)", () => {
  it("on a server without the capability: a cut is a TransportError", async () => {
    const caller = client({ url: plainProxy.url });
    await caller.connect();
    const failure = await caller
      .call("x-test/stream", { steps: 50, ms: 5 }, { onProgress: () => {} })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    await caller.close();
  });

  it("when every reconnect fails: the TransportError the cut gave, after maxAttempts", async () => {
    let reconnects = 0;
    // Resumes are refused at the socket: the proxy's port for GETs is closed.
    const failingFetch: typeof fetch = (input, init) =>
      init?.method === "GET" ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init);
    const cut = await cuttingProxy(server.url, { chance: 1, span: 0 });
    const caller = client({
      url: cut.url,
      fetch: failingFetch,
      resume: { maxAttempts: 3, initialDelayMs: 1, onReconnect: () => void reconnects++ },
    });
    await caller.connect();
    const failure = await caller
      .call("x-test/stream", { steps: 50, ms: 5 }, { onProgress: () => {} })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toMatch(/x-test\/stream/);
    expect(reconnects).toBe(3);
    await caller.close();
    await cut.close();
  });
});
