/**
 * The HTTP client transport against a raw node:http peer on 127.0.0.1 (§5.2, §9): SSE
 * frames as they arrive, buffered JSON otherwise, the status table, cancellation by
 * aborting the request, and the RCP-Session header. Every case runs over both exchanges:
 * fetch (the default) and node:http (`nodeHttpExchange` from `@rcp-gen/runtime/node`).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LogMessage, ProgressEvent } from "../../../runtime/src/protocol/types.js";
import { httpClientTransport, type HttpClientTransportOptions } from "../../../runtime/src/client/http-transport.js";
import { parseRetryAfter } from "../../../runtime/src/client/http-status.js";
import { nodeHttpExchange } from "../../../runtime/src/client/node-http-exchange.js";
import { TransportError } from "../../../runtime/src/client/transport.js";
import { startSsePeer, type SsePeer } from "../../fixtures/client-peers/sse-peer.js";
import { failureOf, testClient } from "./peers.js";

let peer: SsePeer;
afterEach(() => peer?.close());

it("§12.2 Retry-After as an HTTP date counts from now; garbage is ignored", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:03 GMT", now)).toBe(3000);
  expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  expect(parseRetryAfter("soon", now)).toBeUndefined();
});

// How many connections 4 calls made one after another may use: undici's fetch returns a
// connection to its pool a moment after the body is read, so the next call may take another.
const exchanges: Array<[string, Partial<HttpClientTransportOptions>, number]> = [
  ["fetch", {}, 2],
  ["node:http", { exchange: nodeHttpExchange() }, 1],
];

describe.each(exchanges)("over %s", (_name, exchange, connections) => {
  const transport = (options: Partial<HttpClientTransportOptions> = {}) =>
    httpClientTransport({ url: peer.base, ...exchange, ...options });

  async function httpClient(options: Partial<HttpClientTransportOptions> = {}, session?: string) {
    peer = await startSsePeer({ session });
    const client = testClient(transport(options));
    await client.connect();
    return client;
  }

  const searches = () => peer.seen.filter((request) => request.path === "/rcp/search");

  describe("requests (§5.2)", () => {
    it("§5.2 each call is POST <base>/<method> with a JSON body; headers are sent; a plain call gets buffered JSON", async () => {
      const client = await httpClient({ headers: { Authorization: "Bearer t0k3n" } });
      expect(client.serverInfo).toEqual({ name: "sse-peer", version: "0.0.1" });
      expect(await client.call("search", { script: "json" })).toEqual({ buffered: true, accept: "application/json" });
      expect(peer.seen.map((request) => request.path)).toEqual(["/rcp/initialize", "/rcp/search"]);
      expect(peer.seen.every((request) => request.authorization === "Bearer t0k3n")).toBe(true);
      expect(searches()[0]!.body).toEqual({ jsonrpc: "2.0", id: 2, method: "search", params: { script: "json" } });
    });

    it("§5.2 a session token issued in initialize's _meta.session is replayed as RCP-Session", async () => {
      const client = await httpClient({}, "session-7");
      await client.call("search", { script: "json" });
      expect(peer.seen.map((request) => request.session)).toEqual([undefined, "session-7"]);
    });

    it("consecutive calls reuse kept-alive connections", async () => {
      const client = await httpClient();
      for (let call = 0; call < 3; call += 1) await client.call("search", { script: "json" });
      expect(peer.seen).toHaveLength(4);
      expect(new Set(peer.seen.map((request) => request.clientPort)).size).toBeLessThanOrEqual(connections);
    });

    it("§4.5 a notification is POSTed and its 204 accepted", async () => {
      const client = await httpClient();
      await client.notify("notifications/cancel", { id: 99 });
      expect(peer.seen.at(-1)).toMatchObject({ path: "/rcp/notifications/cancel", body: { params: { id: 99 } } });
    });
  });

  describe("SSE (§5.2, §9)", () => {
    it("§9 progress and logs arrive while the call is open; unknown tokens and non-JSON data are skipped; the final frame ends it", async () => {
      const client = await httpClient();
      const progress: ProgressEvent[] = [];
      const logs: LogMessage[] = [];
      let settled = false;
      const call = client
        .call(
          "search",
          { script: "sse" },
          { onProgress: (event) => progress.push(event), onLog: (log) => logs.push(log) },
        )
        .finally(() => (settled = true));
      await vi.waitFor(() => expect(logs).toHaveLength(1));
      expect(progress).toEqual([{ progress: 0.5 }]);
      // The log carried no token: it belongs to the call whose stream carried it (§17.1).
      expect(logs).toEqual([{ level: "warning", message: "on your stream" }]);
      expect(settled).toBe(false);
      expect(searches()[0]!.accept).toContain("text/event-stream");
      peer.release();
      // The peer leaves the stream open after the final frame; the client stops reading there.
      expect(await call).toEqual({ streamed: true });
    });

    it("§9 resetTimeoutOnProgress alone asks for SSE and a progressToken, so progress can reset the clock", async () => {
      const client = await httpClient();
      await client.call("search", { script: "json" }, { timeout: 5000, resetTimeoutOnProgress: true });
      expect(searches()[0]!.accept).toContain("text/event-stream");
      expect(searches()[0]!.body.params?._meta?.progressToken).toEqual(expect.any(String));
    });

    it("§7.14 a signal aborted right after the call starts rejects with -32006 and the request never completes", async () => {
      const client = await httpClient();
      const controller = new AbortController();
      const call = client.call("search", { script: "json" }, { signal: controller.signal });
      controller.abort();
      expect(await failureOf(call)).toMatchObject({ code: -32006 });
    });

    it("§5.2 with sse: false the same call asks for and gets one buffered JSON response", async () => {
      const client = await httpClient({ sse: false });
      const result = await client.call("search", { script: "sse" }, { onProgress: () => {} });
      expect(result).toEqual({ buffered: true, accept: "application/json" });
    });

    it("§5.2 a stream that ends without the response fails the call with a TransportError", async () => {
      const client = await httpClient();
      const error = await failureOf(client.call("search", { script: "endWithoutAnswer" }, { onProgress: () => {} }));
      expect(error).toBeInstanceOf(TransportError);
      expect(error.message).toMatch(/no JSON-RPC response for request/);
    });

    it("§4.7 a 200 body answering another id fails the call with a TransportError", async () => {
      const client = await httpClient();
      expect(await failureOf(client.call("search", { script: "wrongId" }))).toBeInstanceOf(TransportError);
    });
  });

  describe("cancellation by aborting the request (§7.14, §13.1)", () => {
    it("§7.14 aborting the signal closes the stream (the server sees the disconnect) and sends no cancel notification", async () => {
      const client = await httpClient();
      const controller = new AbortController();
      const progress: ProgressEvent[] = [];
      const call = failureOf(
        client.call(
          "search",
          { script: "hang" },
          { signal: controller.signal, onProgress: (event) => progress.push(event) },
        ),
      );
      await vi.waitFor(() => expect(progress).toHaveLength(1));
      controller.abort();
      expect(await call).toMatchObject({ code: -32006 });
      await vi.waitFor(() => expect(searches()[0]!.aborted).toBe(true));
      expect(peer.seen.some((request) => request.path.includes("cancel"))).toBe(false);
    });

    it("§13.1 closing the client fails its calls in flight and ends their requests (the server sees the disconnect)", async () => {
      const client = await httpClient();
      const call = failureOf(client.call("search", { script: "hang" }));
      await vi.waitFor(() => expect(searches()).toHaveLength(1));
      await client.close();
      expect(await call).toBeInstanceOf(TransportError);
      await vi.waitFor(() => expect(searches()[0]!.aborted).toBe(true));
    });

    it("§13.1 a local timeout rejects with -32014 and aborts the request", async () => {
      const client = await httpClient();
      const error = await failureOf(client.call("search", { script: "slow", delayMs: 5000 }, { timeout: 100 }));
      expect(error).toMatchObject({ code: -32014, retryable: "yes" });
      await vi.waitFor(() => expect(searches()[0]!.aborted).toBe(true));
    });
  });

  describe("HTTP status mapping (§5.2, §12.2)", () => {
    const cases = [
      { status: 401, code: -32012 },
      { status: 403, code: -32012 },
      { status: 400, code: -32600 },
      { status: 413, code: -32013 },
      { status: 500, code: -32603 },
      { status: 503, code: -32010 },
    ];
    it.each(cases)("§5.2 HTTP $status becomes $code", async ({ status, code }) => {
      const client = await httpClient();
      const error = await failureOf(client.call("search", { script: "status", status, body: "<html>nope</html>" }));
      expect(error).toMatchObject({ code, data: { httpStatus: status } });
    });

    it("§12.2 HTTP 429 is -32011, retryable, with retryAfterMs from Retry-After", async () => {
      const client = await httpClient();
      const error = await failureOf(
        client.call("search", { script: "status", status: 429, headers: { "Retry-After": "2" } }),
      );
      expect(error).toMatchObject({ code: -32011, retryable: "yes", data: { retryAfterMs: 2000 } });
    });

    it("§5.2 404 (not an RCP endpoint) is a TransportError carrying the status", async () => {
      peer = await startSsePeer();
      const client = testClient(transport({ url: peer.base.replace("/rcp", "/elsewhere") }));
      const error = await failureOf(client.connect());
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ status: 404 });
    });

    it("§13.1 a refused connection is a TransportError", async () => {
      peer = await startSsePeer();
      const client = testClient(transport());
      await peer.close();
      const error = await failureOf(client.call("ping", {}));
      expect(error).toBeInstanceOf(TransportError);
      expect(error.message).toMatch(/ECONNREFUSED/);
    });
  });

  describe("bounds on what the client reads (§15.5)", () => {
    const limit = 1024 * 1024;

    it.each(["big", "bigChunked"])(
      "a %s body above maxMessageBytes fails the call with -32013 and is not read to its end",
      async (script) => {
        const client = await httpClient({ maxMessageBytes: limit });
        const error = await failureOf(client.call("search", { script, bytes: 4 * limit }));
        expect(error).toMatchObject({ code: -32013, retryable: "no", data: { limit } });
        expect(error.message).toMatch(/the body exceeds maxMessageBytes/);
        expect(await client.call("search", { script: "json" })).toMatchObject({ buffered: true });
      },
    );

    it("an SSE event above maxMessageBytes fails the call with -32013 and closes the stream", async () => {
      const client = await httpClient({ maxMessageBytes: limit });
      const progress: ProgressEvent[] = [];
      const call = client.call(
        "search",
        { script: "bigEvent", bytes: 4 * limit },
        { onProgress: (e) => progress.push(e) },
      );
      const error = await failureOf(call);
      expect(error).toMatchObject({ code: -32013, data: { limit } });
      expect(error.message).toMatch(/an SSE event exceeds maxMessageBytes/);
      expect(progress).toEqual([{ progress: 0.1 }]);
      await vi.waitFor(() => expect(searches()[0]!.aborted).toBe(true));
    });
  });
});
