/**
 * The generated server mounted in real frameworks (docs/examples/frameworks): plain node:http,
 * Express 5, Fastify 5 and Hono on @hono/node-server, each on 127.0.0.1. Each streams a retrieve
 * over SSE end to end (the handler returns only after the client has received its progress,
 * so a buffered response would deadlock and time out), lets the framework's other routes
 * answer, keeps the HTTP safety rules (415, foreign Origin 403, foreign Host 403), and aborts
 * the handler when the client goes away.
 */
import { request as httpRequest } from "node:http";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { connectHttp } from "../../generated/client.js";
import { createServer } from "../../generated/server.js";
import { nodeListener } from "../../runtime/src/node/index.js";
import { mountExpress } from "../../docs/examples/frameworks/express.js";
import { mountFastify } from "../../docs/examples/frameworks/fastify.js";
import { mountHono } from "../../docs/examples/frameworks/hono.js";
import { mountNodeHttp } from "../../docs/examples/frameworks/node-http.js";
import { rcpUrl, type Mounted } from "../../docs/examples/frameworks/mounted.js";
import type { RcpServer } from "../../runtime/src/server/create-server-runtime.js";

/** Resolvers of handlers waiting for the client, by query. */
const gates = new Map<string, () => void>();
const aborted = new Map<string, () => void>();

const server = createServer({
  info: { name: "adapter-test", version: "1.0.0" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 10 }, streaming: {} },
  handlers: {
    async *retrieve(params, ctx) {
      const query = typeof params.query === "string" ? params.query : JSON.stringify(params.query);
      const waiting = new Promise<void>((resolve) => gates.set(query, resolve));
      ctx.signal.addEventListener("abort", () => aborted.get(query)?.());
      yield { progress: 0.5, stage: "recall", partial: { hits: [{ id: "early", score: 0.5 }] } };
      await waiting;
      return { hits: [{ id: "final", score: 1, text: query }] };
    },
  },
});

const clientInfo = { name: "adapter-test", version: "1.0.0" };
const mounts: Mounted[] = [];
afterAll(async () => {
  await Promise.all(mounts.map((mounted) => mounted.close()));
  await server.close();
});

/** Status of a raw POST to `url` (node:http, so Host can be set). */
function rawStatus(url: string, headers: Record<string, string>, body = '{"jsonrpc":"2.0","id":1,"method":"ping"}') {
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.once("error", reject).end(body);
  });
}

const adapters: Record<string, (server: RcpServer) => Promise<Mounted>> = {
  "node:http": mountNodeHttp,
  "Express 5": mountExpress,
  "Fastify 5": mountFastify,
  "Hono (@hono/node-server)": mountHono,
};

describe.each(Object.entries(adapters))("%s", (name, mount) => {
  let mounted: Mounted;
  const started = (async () => {
    mounted = await mount(server);
    mounts.push(mounted);
  })();

  it("streams a retrieve over SSE: progress reaches the client while the handler still waits", async () => {
    await started;
    const client = await connectHttp({ clientInfo, transport: { url: mounted.url } });
    const query = `stream via ${name}`;
    const stages: string[] = [];
    const result = await client.retrieve(
      { query, k: 1 },
      {
        timeout: 10_000,
        onProgress: (event) => {
          stages.push(String(event.stage));
          gates.get(query)?.();
        },
      },
    );
    expect(stages).toEqual(["recall"]);
    expect(result.hits).toEqual([{ id: "final", score: 1, text: query }]);
    await client.close();
  });

  it("leaves the framework's other routes alone", async () => {
    await started;
    const health = await fetch(new URL("/health", mounted.url));
    expect([health.status, await health.json()]).toEqual([200, { ok: true }]);
  });

  it("keeps the HTTP safety rules: JSON bodies only, allowed Origin and Host only", async () => {
    await started;
    const url = `${mounted.url}/ping`;
    const json = { "content-type": "application/json" };
    expect(await rawStatus(url, json)).toBe(200);
    expect(await rawStatus(url, { "content-type": "text/plain" })).toBe(415);
    expect(await rawStatus(url, { ...json, origin: "https://evil.example" })).toBe(403);
    expect(await rawStatus(url, { ...json, host: "evil.example" })).toBe(403);
  });

  it("aborts the handler when the client goes away mid-stream", async () => {
    await started;
    const client = await connectHttp({ clientInfo, transport: { url: mounted.url } });
    const query = `abandoned via ${name}`;
    const handlerAborted = new Promise<void>((resolve) => aborted.set(query, resolve));
    const controller = new AbortController();
    const call = client.retrieve(
      { query, k: 1 },
      { signal: controller.signal, onProgress: () => controller.abort(new Error("gone")) },
    );
    await expect(call).rejects.toMatchObject({ code: -32006 });
    await handlerAborted;
    gates.get(query)?.();
    await client.close();
  });
});

it("Express: a body parser mounted first is tolerated, its parsed body used", async () => {
  const app = express();
  app.use(express.json());
  app.use(nodeListener(server));
  const http = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const response = await fetch(`${rcpUrl(http)}/ping`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping", params: { nonce: "n" } }),
  });
  expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { nonce: "n" } });
  await new Promise((resolve) => http.close(resolve));
});
