/**
 * Per-caller rate limiting (§15.5), one process with the in-memory limiter: a token bucket per
 * `ctx.auth.subject`, else per stateful session, else per client address, where
 * `X-Forwarded-For` counts only from a trusted proxy. Over HTTP the refusal is 429 with
 * `Retry-After` and -32011 (§5.2, §12.2); over JSON-RPC connections it is -32011.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServerRuntime, type RcpServer, type ServerRuntimeOptions } from "../../runtime/src/index.js";
import { listen } from "../../runtime/src/node/index.js";
import type { MemoryServerEnd } from "../../runtime/src/message-stream/memory-pair.js";
import { fixtureHandlers } from "../fixtures/server/handlers.js";
import { testCapabilities, testProtocol } from "../fixtures/test-protocol.js";

const BURST = 3;
/** Slow enough that no token comes back during a test. */
const RATE = { burst: BURST, perSecond: 0.01 };
const servers: RcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function server(options: Partial<ServerRuntimeOptions>): RcpServer {
  const created = createServerRuntime(testProtocol, {
    info: { name: "limited", version: "1" },
    capabilities: testCapabilities,
    conformance: "L0",
    handlers: fixtureHandlers,
    rateLimit: RATE,
    diagnostics: () => {},
    ...options,
  });
  servers.push(created);
  return created;
}

let nextId = 0;
async function ping(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/ping`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method: "ping", params: {} }),
  });
  const body = (await response.json()) as {
    id: number;
    result?: object;
    error?: { code: number; data: { retryable?: boolean; retryAfterMs?: number } };
  };
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body };
}

describe("rate limit over HTTP (§5.2, §15.5)", () => {
  it("the call past the burst gets 429, Retry-After and -32011 with retryAfterMs; a notification costs nothing", async () => {
    const { url } = await listen(server({}), { port: 0 });
    for (let i = 0; i < BURST; i++) expect((await ping(url)).body.result).toEqual({});
    const cancel = await fetch(`${url}/notifications/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 1 } }),
    });
    expect(cancel.status).toBe(204);
    const refused = await ping(url);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.body.id).toBe(nextId);
    expect(refused.body.error?.code).toBe(-32011);
    expect(refused.body.error?.data).toMatchObject({ retryable: true });
    expect(refused.body.error?.data.retryAfterMs).toBeGreaterThan(0);
  });

  it("X-Forwarded-For names the client only when the peer is a trusted proxy", async () => {
    const untrusted = await listen(server({}), { port: 0 });
    for (let i = 0; i < BURST; i++) await ping(untrusted.url, { "x-forwarded-for": `10.0.0.${i}` });
    // A client that writes its own header does not get a fresh bucket.
    expect((await ping(untrusted.url, { "x-forwarded-for": "10.0.0.99" })).status).toBe(429);

    const behindProxy = await listen(server({ http: { trustedProxies: ["127.0.0.1"] } }), { port: 0 });
    const alice = { "x-forwarded-for": "203.0.113.7" };
    for (let i = 0; i < BURST; i++) expect((await ping(behindProxy.url, alice)).status).toBe(200);
    expect((await ping(behindProxy.url, alice)).status).toBe(429);
    // Forged entries to the left of what the proxy appended are not the address.
    expect((await ping(behindProxy.url, { "x-forwarded-for": "203.0.113.7, 198.51.100.1" })).status).toBe(200);
    expect((await ping(behindProxy.url, { "x-forwarded-for": "198.51.100.2, 203.0.113.7" })).status).toBe(429);
  });

  it("an authenticated caller has its own bucket, wherever it calls from", async () => {
    const { url } = await listen(
      server({ http: { authenticate: (request) => ({ subject: String(request.headers.authorization) }) } }),
      { port: 0 },
    );
    for (let i = 0; i < BURST; i++) expect((await ping(url, { authorization: "alice" })).status).toBe(200);
    expect((await ping(url, { authorization: "alice" })).body.error?.code).toBe(-32011);
    expect((await ping(url, { authorization: "bob" })).status).toBe(200);
  });
});

describe("rate limit over a JSON-RPC connection (§15.5)", () => {
  it("the request past the burst is answered -32011 on the same connection", async () => {
    const frames: Array<{ id: number; result?: object; error?: { code: number } }> = [];
    let deliver: (json: string) => void = () => {};
    const end: MemoryServerEnd = {
      send: (json) => frames.push(JSON.parse(json) as (typeof frames)[number]),
      onMessage: (handler) => (deliver = handler),
      onClose: () => {},
      close: () => {},
    };
    server({}).connect(end);
    deliver(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: 1 } }));
    for (let id = 1; id <= BURST; id++) deliver(JSON.stringify({ jsonrpc: "2.0", id, method: "ping", params: {} }));
    await expect.poll(() => frames.length).toBe(BURST + 1);
    expect(frames.find((frame) => frame.id === BURST)?.error?.code).toBe(-32011);
    expect(frames.filter((frame) => frame.result !== undefined).map((frame) => frame.id)).toEqual([0, 1, 2]);
  });
});
