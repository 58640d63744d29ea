/**
 * `@rcp-gen/runtime/redis` against a real redis-server: two servers sharing one Redis behave as
 * one for stateful sessions (§5.2), `notifications/cancel` (§7.14) and the rate limit (§15.5),
 * and when Redis goes away each feature does what docs/deployment.md says: the limiter lets
 * requests through, a session this replica holds goes on, an unknown one gets 503 / -32010.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { createServerRuntime, type RcpServer } from "../../runtime/src/index.js";
import type { AnyHandler } from "../../runtime/src/server/core.js";
import { listen } from "../../runtime/src/node/index.js";
import { redisState, type RedisState } from "../../runtime/src/redis/index.js";
import { fixtureHandlers } from "../fixtures/server/handlers.js";
import { testCapabilities, testProtocol } from "../fixtures/test-protocol.js";
import { missingBinaries, startRedis, type RedisServer } from "./processes.js";

const skip = missingBinaries();
if (skip !== undefined) console.log(skip);

const BURST = 4;
const aborted: string[] = [];
const diagnostics: string[] = [];
const sleep: AnyHandler = (params: { ms: number }, ctx) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ slept: params.ms }), params.ms);
    ctx.signal.addEventListener("abort", () => {
      aborted.push(String(ctx.id));
      clearTimeout(timer);
      reject(ctx.signal.reason as Error);
    });
  });

let redis: RedisServer;
const clients: Redis[] = [];
const states: RedisState[] = [];
const servers: RcpServer[] = [];
const urls: string[] = [];

beforeAll(async () => {
  if (skip !== undefined) return;
  redis = await startRedis();
  for (let replica = 0; replica < 2; replica++) {
    const client = redis.client();
    clients.push(client);
    client.on("error", () => {});
    await client.connect();
    const state = redisState({ client, prefix: `test:${process.pid}:` });
    states.push(state);
    const server = createServerRuntime(testProtocol, {
      info: { name: `replica-${replica}`, version: "1" },
      capabilities: testCapabilities,
      conformance: "L0",
      handlers: { ...fixtureHandlers, "x-test/sleep": sleep },
      // Each test calls as its own subject, so each has its own bucket; a request without one is limited by its session.
      http: {
        sessions: "stateful",
        authenticate: (request) =>
          request.headers.authorization === undefined ? true : { subject: String(request.headers.authorization) },
      },
      rateLimit: { burst: BURST, perSecond: 0.01 },
      state,
      diagnostics: (line) => diagnostics.push(line),
    });
    servers.push(server);
    urls.push((await listen(server, { port: 0 })).url);
  }
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(states.map((state) => state.close()));
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

let nextId = 0;
/** `caller` is the authenticated subject; null sends none. */
async function post(
  url: string,
  method: string,
  params: object,
  token?: string,
  caller: string | null = "203.0.113.1",
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (caller !== null) headers.authorization = caller;
  if (token !== undefined) headers["rcp-session"] = token;
  const id = ++nextId;
  const response = await fetch(`${url}/${method}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  // `result` typed as present: reading it from an error reply fails the test.
  const body = (await response.json()) as {
    id: number;
    result: { _meta: { session: string }; session?: unknown };
    error?: { code: number; message: string };
  };
  return { id, status: response.status, body };
}

async function initialize(url: string, caller?: string): Promise<string> {
  const reply = await post(
    url,
    "initialize",
    { protocolVersion: 1, client: { name: "c", version: "1" } },
    undefined,
    caller,
  );
  return reply.body.result._meta.session;
}

describe.skipIf(skip !== undefined)("two replicas sharing Redis", () => {
  it("a session initialized on one replica is used on the other, and a shutdown there ends it for both (§5.2)", async () => {
    const token = await initialize(urls[0]!, "sessions");
    const echoed = await post(urls[1]!, "x-test/echo", {}, token, "sessions");
    expect(echoed.body.result.session).toEqual({ name: "c", version: "1" });
    await post(urls[1]!, "shutdown", {}, token, "sessions");
    expect((await post(urls[0]!, "x-test/echo", {}, token, "sessions")).body.error?.code).toBe(-32001);
  });

  it("a cancel posted to the other replica aborts the request and answers -32006 (§7.14)", async () => {
    const token = await initialize(urls[0]!, "cancel");
    const running = post(urls[0]!, "x-test/sleep", { ms: 20_000 }, token, "cancel");
    const id = nextId;
    await expect
      .poll(
        async () =>
          await fetch(`${urls[1]}/notifications/cancel`, {
            method: "POST",
            headers: { "content-type": "application/json", "rcp-session": token, authorization: "cancel" },
            body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancel", params: { id } }),
          }).then(() => aborted.includes(String(id))),
      )
      .toBe(true);
    const answer = await running;
    expect(answer.body).toMatchObject({ id, error: { code: -32006 } });
  });

  it("the rate limit holds across replicas: the call past the burst is refused on either (§15.5)", async () => {
    const statuses: number[] = [];
    for (let call = 0; call <= BURST; call++)
      statuses.push((await post(urls[call % 2]!, "ping", {}, undefined, "limited")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect((await post(urls[0]!, "ping", {}, undefined, "limited")).body.error?.code).toBe(-32011);
  });

  it("a session's own bucket holds across replicas, taken with the session's lookup in one round trip to Redis (§15.5)", async () => {
    const token = await initialize(urls[0]!, "session-bucket");
    // ioredis sends a script's text once per connection (EVAL after EVALSHA's NOSCRIPT): not watched.
    for (const url of urls) expect((await post(url, "ping", {}, token, null)).status).toBe(200);
    const monitor = await clients[0]!.monitor();
    // Commands the replicas sent; those a Lua script ran come from "lua".
    const sent: string[] = [];
    monitor.on("monitor", (_time: string, args: string[], source: string) => {
      if (source !== "lua") sent.push(String(args[0]).toLowerCase());
    });
    try {
      const statuses: number[] = [];
      for (let call = urls.length; call <= BURST; call++)
        statuses.push((await post(urls[call % 2]!, "ping", {}, token, null)).status);
      expect(statuses).toEqual([200, 200, 429]);
      await expect.poll(() => sent.length).toBe(statuses.length);
      expect(new Set(sent)).toEqual(new Set(["evalsha"]));
    } finally {
      monitor.disconnect();
    }
  });

  it("with Redis gone the servers keep answering: limiter open, held sessions on, unknown ones 503 / -32010", async () => {
    const token = await initialize(urls[0]!, "outage");
    for (let call = 0; call < BURST; call++) await post(urls[1]!, "ping", {}, undefined, "outage-limited");
    await redis.stop();
    await expect.poll(() => clients.every((client) => client.status !== "ready")).toBe(true);
    // Fail open: the caller is past its burst, but no limiter can say so.
    expect((await post(urls[1]!, "ping", {}, undefined, "outage-limited")).body.result).toEqual({});
    // The replica that holds the session goes on with it.
    expect((await post(urls[0]!, "x-test/echo", {}, token, "outage")).body.result).toBeDefined();
    // The other one cannot tell whether the session still exists: retryable, never a wrong answer.
    const unknown = await post(urls[1]!, "x-test/echo", {}, token, "outage");
    expect(unknown.status).toBe(503);
    expect(unknown.body).toMatchObject({ id: unknown.id, error: { code: -32010 } });
    const opened = await post(urls[1]!, "initialize", { protocolVersion: 1 }, undefined, "outage");
    expect(opened.status).toBe(503);
    expect(opened.body.error?.code).toBe(-32010);
    expect(diagnostics.some((line) => line.includes("rate limiter unreachable"))).toBe(true);
    expect(diagnostics.some((line) => line.includes("session store unreachable"))).toBe(true);
  });
});
