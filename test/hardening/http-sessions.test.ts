/**
 * Stateful HTTP sessions under an initialize flood (§5.2, §15.5): each successful
 * `initialize` keeps a session in memory until `shutdown`, so an unauthenticated loop of
 * initializes must not grow the server without bound, and must not log anyone out either.
 * Past `http.maxSessions` a new `initialize` is refused with -32011 and a retry hint; every
 * session within its idle window keeps working. A session idle past `http.sessionIdleMs`
 * is forgotten and makes room.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createServerRuntime } from "../../runtime/src/server/create-server-runtime.js";
import { fixtureHandlers } from "../fixtures/server/handlers.js";
import { testCapabilities, testProtocol } from "../fixtures/test-protocol.js";
import { hardeningHttp, type HttpServerChild } from "./children.js";
import { postOnce, type RpcReply } from "./http-client.js";

const MAX_SESSIONS = 3;
let server: HttpServerChild;
beforeAll(async () => {
  server = await hardeningHttp({ http: { sessions: "stateful", maxSessions: MAX_SESSIONS } });
});
afterAll(() => server.stop());

const rpc = (id: number, method: string, params: object = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

async function initialize(id: number): Promise<string> {
  const reply = await postOnce(`${server.url}/initialize`, rpc(id, "initialize", { protocolVersion: 1 }));
  return (JSON.parse(reply.text) as { result: { _meta: { session: string } } }).result._meta.session;
}

async function echoWith(token: string): Promise<{ result?: unknown; error?: { code: number } }> {
  const reply = await postOnce(`${server.url}/x-test/echo`, rpc(99, "x-test/echo"), { "rcp-session": token });
  return JSON.parse(reply.text) as { result?: unknown; error?: { code: number } };
}

describe("stateful sessions are bounded (§5.2, §15.5)", () => {
  it("past maxSessions a flood of initializes is refused with -32011; no live session is evicted", async () => {
    const tokens: string[] = [];
    for (let i = 0; i < MAX_SESSIONS; i++) tokens.push(await initialize(i));
    expect(new Set(tokens).size).toBe(tokens.length);
    for (let i = 0; i < 20; i++) {
      const reply = await postOnce(`${server.url}/initialize`, rpc(100 + i, "initialize", { protocolVersion: 1 }));
      const answer = JSON.parse(reply.text) as {
        id: number;
        error?: { code: number; data?: { retryAfterMs?: number } };
      };
      expect(reply.status).toBe(429);
      expect(reply.headers["rcp-session"]).toBeUndefined();
      expect(answer.id).toBe(100 + i);
      expect(answer.error?.code).toBe(-32011);
      expect(answer.error?.data?.retryAfterMs).toBeGreaterThan(0);
    }
    for (const kept of tokens) expect((await echoWith(kept)).result).toBeDefined();
    for (const token of tokens) await postOnce(`${server.url}/shutdown`, rpc(30, "shutdown"), { "rcp-session": token });
  });

  it("a shut-down session frees its place without evicting another", async () => {
    const tokens: string[] = [];
    for (let i = 0; i < MAX_SESSIONS; i++) tokens.push(await initialize(10 + i));
    const first = tokens[0]!;
    await postOnce(`${server.url}/shutdown`, rpc(20, "shutdown"), { "rcp-session": first });
    tokens.push(await initialize(21));
    expect((await echoWith(first)).error?.code).toBe(-32001);
    for (const kept of tokens.slice(1)) expect((await echoWith(kept)).result).toBeDefined();
  });
});

describe("stateful sessions expire when idle (§5.2, §13, §15.5)", () => {
  afterEach(() => vi.useRealTimers());
  const IDLE_MS = 60_000;

  it("a token unused for sessionIdleMs gets -32001; one in use, or busy with a request, is kept", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const server = createServerRuntime(testProtocol, {
      info: { name: "idle", version: "1" },
      capabilities: testCapabilities,
      conformance: "L0",
      handlers: fixtureHandlers,
      http: { sessions: "stateful", sessionIdleMs: IDLE_MS },
    });
    let nextId = 0;
    const post = async (method: string, token?: string, params: object = {}, signal?: AbortSignal) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (token !== undefined) headers["rcp-session"] = token;
      const body = rpc(++nextId, method, params);
      const response = await server.fetch(
        new Request(`http://127.0.0.1/rcp/${method}`, { method: "POST", headers, body, signal }),
      );
      return (await response.json()) as RpcReply<{ _meta: { session: string } }>;
    };
    const open = async () => (await post("initialize", undefined, { protocolVersion: 1 })).result._meta.session;
    const [idle, used, busy] = [await open(), await open(), await open()];
    const stop = new AbortController();
    const hanging = post("x-test/sleep", busy, { ms: 60_000 }, stop.signal).catch(() => undefined);
    for (let minute = 0; minute < 3; minute++) {
      vi.setSystemTime(Date.now() + IDLE_MS / 2 + 1);
      expect((await post("x-test/echo", used)).result).toBeDefined();
    }
    expect((await post("x-test/echo", idle)).error?.code).toBe(-32001);
    expect((await post("x-test/echo", busy)).result).toBeDefined();
    stop.abort();
    await hanging;
    await server.close();
  });
});
