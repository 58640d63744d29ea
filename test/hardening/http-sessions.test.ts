/**
 * Stateful HTTP sessions under an initialize flood (§5.2, §15.5): each successful
 * `initialize` keeps a session in memory until `shutdown`, so an unauthenticated loop of
 * initializes must not grow the server without bound. Past `http.maxSessions` the oldest
 * session is forgotten: its token no longer initializes anything (-32001), newer ones work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningHttp, type HttpServerChild } from "./children.js";
import { postOnce } from "./http-client.js";

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
  it("past maxSessions the oldest sessions are forgotten; the newest keep working", async () => {
    const tokens: string[] = [];
    for (let i = 0; i < MAX_SESSIONS + 2; i++) tokens.push(await initialize(i));
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const forgotten of tokens.slice(0, 2)) expect((await echoWith(forgotten)).error?.code).toBe(-32001);
    for (const kept of tokens.slice(2)) expect((await echoWith(kept)).result).toBeDefined();
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
