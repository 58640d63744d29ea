/** The Web fetch handler and the in-memory pair: the same core without a process boundary (§5.2, §5.1). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServerRuntime, type RcpServer } from "../../../runtime/src/server/create-server-runtime.js";
import { createMemoryTransportPair } from "../../../runtime/src/message-stream/memory-pair.js";
import { testCapabilities, testProtocol } from "../../fixtures/test-protocol.js";
import { fixtureHandlers } from "../../fixtures/server/handlers.js";
import { inProcessFixtureServer } from "../../fixtures/server/in-process-server.js";
import { frameOf } from "./helpers/http-child.js";
import type { Frame } from "./helpers/stdio-child.js";

const servers: RcpServer[] = [];
function server(validateResults = true): RcpServer {
  const created = inProcessFixtureServer({ validateResults });
  servers.push(created);
  return created;
}
afterEach(async () => {
  for (const created of servers.splice(0)) await created.close();
});

/** A Request with a string body would say text/plain, which the server refuses (415, §5.2). */
const JSON_BODY = { "content-type": "application/json" };
const body = (id: unknown, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

describe("fetch(request) handler", () => {
  it("§5.2 answers a POST with a buffered JSON response", async () => {
    const response = await server().fetch(
      new Request("http://localhost/rcp/ping", {
        method: "POST",
        headers: JSON_BODY,
        body: body(1, "ping", { nonce: "n" }),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { nonce: "n" } });
  });

  it("ctx.notify is silent on a buffered response, which has no stream (§5.2)", async () => {
    const request = new Request("http://localhost/rcp/x-test/notify", {
      method: "POST",
      headers: JSON_BODY,
      body: body(1, "x-test/notify"),
    });
    expect(await (await server().fetch(request)).json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  it("validateResults: false passes a malformed result through (production mode)", async () => {
    const request = () =>
      new Request("http://localhost/rcp/x-test/malformed", {
        method: "POST",
        headers: JSON_BODY,
        body: body(1, "x-test/malformed"),
      });
    expect((await frameOf(await server().fetch(request()))).error.code).toBe(-32603);
    expect((await frameOf(await server(false).fetch(request()))).result).toEqual({ ok: "yes" });
  });

  it("§5.2 streams SSE frames through a ReadableStream", async () => {
    const response = await server().fetch(
      new Request("http://localhost/rcp/x-test/stream", {
        method: "POST",
        headers: { ...JSON_BODY, accept: "text/event-stream" },
        body: body(2, "x-test/stream", { steps: 2, _meta: { progressToken: 5 } }),
      }),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const frames = (await response.text()).split("\n\n").filter(Boolean);
    expect(frames.map((frame) => (JSON.parse(frame.slice("data: ".length)) as Frame).method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
  });

  it("§5.2 aborting the request aborts the handler and ends the stream", async () => {
    const controller = new AbortController();
    const response = await server().fetch(
      new Request("http://localhost/rcp/x-test/sleep", {
        method: "POST",
        headers: { ...JSON_BODY, accept: "text/event-stream" },
        body: body(3, "x-test/sleep", { ms: 60_000 }),
        signal: controller.signal,
      }),
    );
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const reading = response.text();
      controller.abort();
      expect(await reading).toBe("");
      expect(stderr).toHaveBeenCalledWith("aborted x-test/sleep 3 -32006\n");
    } finally {
      stderr.mockRestore();
    }
  });
});

describe("stateless HTTP initialize (§5.2, §7.1)", () => {
  it("answers with min(client, server) even though the session remembers nothing", async () => {
    const rcp = createServerRuntime(
      { ...testProtocol, version: 3 },
      {
        info: { name: "v3", version: "1" },
        capabilities: testCapabilities,
        conformance: "L0",
        handlers: fixtureHandlers,
      },
    );
    const post = (method: string, params: object) =>
      rcp.fetch(
        new Request(`http://localhost/rcp/${method}`, {
          method: "POST",
          headers: JSON_BODY,
          body: body(1, method, params),
        }),
      );
    expect((await frameOf(await post("initialize", { protocolVersion: 2 }))).result.protocolVersion).toBe(2);
    expect((await frameOf(await post("initialize", { protocolVersion: 9 }))).result.protocolVersion).toBe(3);
  });
});

describe("capability stability (§13.2)", () => {
  it("the advertised set is a snapshot: mutating the options object later changes nothing", async () => {
    const capabilities = structuredClone(testCapabilities) as Record<string, unknown>;
    const rcp = createServerRuntime(testProtocol, {
      info: { name: "snapshot", version: "1" },
      capabilities,
      conformance: "L0",
      handlers: fixtureHandlers,
    });
    delete capabilities.retrieve;
    capabilities.graph = {};
    const info = await rcp.fetch(
      new Request("http://localhost/rcp/info", { method: "POST", headers: JSON_BODY, body: body(1, "info") }),
    );
    const advertised = (await frameOf(info)).result.capabilities;
    expect(advertised).toHaveProperty("retrieve");
    expect(advertised).not.toHaveProperty("graph");
  });
});

describe("connect(memory end)", () => {
  it("§5.1 serves frames over an in-memory pair and hangs up once shutdown is answered (§7.12)", async () => {
    const { client, server: end } = createMemoryTransportPair();
    const received: Array<Record<string, unknown>> = [];
    let closedWith: Error | undefined;
    await client.start({
      receive: (frame) => received.push(frame as Record<string, unknown>),
      closed: (error) => (closedWith = error),
    });
    server().connect(end);
    const request = (id: number, method: string, params: object = {}) =>
      client.send({ jsonrpc: "2.0", id, method, params: { ...params } });
    await request(1, "initialize", { protocolVersion: 1 });
    await request(2, "x-test/sleep", { ms: 20 });
    await request(3, "shutdown");
    await request(4, "ping").catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received.map((frame) => frame.id)).toEqual([1, 3, 4, 2]);
    expect(received[2]).toMatchObject({ error: { code: -32600 } });
    expect(closedWith).toBeInstanceOf(Error);
  });
});
