/**
 * The client's own session rules (§6, §7.1, §14.4), observed at the server end of an
 * in-memory pair that records every frame: local gating before any I/O, the version floor,
 * the cached initialize result, and the server hanging up.
 */
import { describe, expect, it } from "vitest";
import { createMemoryTransportPair, type MemoryServerEnd } from "../../../runtime/src/message-stream/memory-pair.js";
import { TransportError } from "../../../runtime/src/client/transport.js";
import { failureOf, testClient } from "./peers.js";

interface ScriptedServer {
  end: MemoryServerEnd;
  /** Every frame the client sent, parsed. */
  received: Array<{ id?: number; method: string; params: Record<string, unknown> }>;
  closedByClient: Promise<void>;
}

/** Answers initialize with `initializeResult` and every other request with `{}`. */
function scriptedServer(end: MemoryServerEnd, initializeResult: unknown): ScriptedServer {
  const received: ScriptedServer["received"] = [];
  end.onMessage((json) => {
    const frame = JSON.parse(json) as ScriptedServer["received"][number];
    received.push(frame);
    if (frame.id === undefined) return;
    const result = frame.method === "initialize" ? initializeResult : {};
    end.send(JSON.stringify({ jsonrpc: "2.0", id: frame.id, result }));
  });
  const closedByClient = new Promise<void>((resolve) => end.onClose(resolve));
  return { end, received, closedByClient };
}

const initializeResult = {
  protocolVersion: 2,
  server: { name: "scripted", version: "9.9.9" },
  capabilities: { search: { maxK: 10 }, index: { writable: false }, streaming: {} },
  _meta: { conformance: "L1" },
};

async function connected(result: unknown = initializeResult) {
  const pair = createMemoryTransportPair();
  const server = scriptedServer(pair.server, result);
  const client = testClient(pair.client);
  await client.connect();
  return { client, server };
}

describe("initialize (§7.1)", () => {
  it("§7.1 connect() sends initialize with the protocol's version, client info and capabilities, and caches the result", async () => {
    const { client, server } = await connected();
    expect(server.received).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: 2,
          client: { name: "client-tests", version: "1.0.0" },
          capabilities: { streaming: {} },
        },
      },
    ]);
    expect(client.protocolVersion).toBe(2);
    expect(client.serverInfo).toEqual({ name: "scripted", version: "9.9.9" });
    expect(client.serverCapabilities).toEqual(initializeResult.capabilities);
    expect(client.conformance).toBe("L1");
  });

  it("§7.1 a negotiated version below the client's minimum closes the connection and throws -32002", async () => {
    const pair = createMemoryTransportPair();
    const server = scriptedServer(pair.server, { ...initializeResult, protocolVersion: 1 });
    const client = testClient(pair.client, { minProtocolVersion: 2 });
    const error = await failureOf(client.connect());
    expect(error).toMatchObject({ code: -32002, data: { negotiated: 1, minimum: 2, maximum: 2 } });
    await server.closedByClient;
    expect(await failureOf(client.call("ping", {}))).toBeInstanceOf(TransportError);
  });

  it("§7.1 a version above the client's own is refused too: the server did not negotiate min()", async () => {
    const pair = createMemoryTransportPair();
    scriptedServer(pair.server, { ...initializeResult, protocolVersion: 3 });
    expect((await failureOf(testClient(pair.client).connect())).code).toBe(-32002);
  });

  it("§13 after a failed initialize, connect() may be tried again", async () => {
    const pair = createMemoryTransportPair();
    let attempts = 0;
    pair.server.onMessage((json) => {
      const { id } = JSON.parse(json) as { id: number };
      const reply =
        ++attempts === 1 ? { error: { code: -32010, message: "warming up" } } : { result: initializeResult };
      pair.server.send(JSON.stringify({ jsonrpc: "2.0", id, ...reply }));
    });
    const client = testClient(pair.client);
    expect(await failureOf(client.connect())).toMatchObject({ code: -32010, retryable: "yes" });
    await client.connect();
    expect(client.serverInfo).toEqual(initializeResult.server);
  });

  it("§7.1 an initialize result that fails the descriptor's validator is -32603 and closes", async () => {
    const pair = createMemoryTransportPair();
    const server = scriptedServer(pair.server, { protocolVersion: 2 });
    const error = await failureOf(testClient(pair.client).connect());
    expect(error).toMatchObject({ code: -32603, message: "Malformed initialize result" });
    await server.closedByClient;
  });
});

describe("local gating before any I/O (§6, §7, §12, §14.4)", () => {
  it("§7 an unadvertised capability is -32003 and nothing is sent", async () => {
    const { client, server } = await connected();
    const error = await failureOf(client.call("x-acme/echo", {}));
    expect(error).toMatchObject({
      code: -32003,
      retryable: "no",
      data: { method: "x-acme/echo", capability: "x-acme" },
    });
    expect(server.received).toHaveLength(1);
  });

  it("§7.10 a falsy `requires` path (index.writable) is -32003 naming that path", async () => {
    const { client, server } = await connected();
    const error = await failureOf(client.call("index/add", { documents: [] }));
    expect(error).toMatchObject({ code: -32003, data: { capability: "index.writable" } });
    expect(server.received).toHaveLength(1);
  });

  it("§12 a method the protocol does not define is -32004, preferred over -32003", async () => {
    const { client, server } = await connected();
    expect(await failureOf(client.call("x-nobody/thing", {}))).toMatchObject({ code: -32004, retryable: "no" });
    expect(server.received).toHaveLength(1);
  });

  it("§14.4 before connect() only beforeInitialize methods go out; others are -32001", async () => {
    const pair = createMemoryTransportPair();
    const server = scriptedServer(pair.server, initializeResult);
    const client = testClient(pair.client);
    expect(await failureOf(client.call("search", { script: "echo" }))).toMatchObject({
      code: -32001,
      retryable: "yes",
    });
    expect(await client.call("ping", { nonce: 1 })).toEqual({});
    expect(server.received.map((frame) => frame.method)).toEqual(["ping"]);
  });

  it("§9 stream() surfaces a local refusal when iterated, with nothing sent", async () => {
    const { client, server } = await connected();
    const iterate = async (): Promise<unknown[]> => {
      const events: unknown[] = [];
      for await (const event of client.stream("x-acme/echo", {})) events.push(event);
      return events;
    };
    await expect(iterate()).rejects.toMatchObject({ code: -32003 });
    expect(server.received).toHaveLength(1);
  });

  it("§6 supports() reads presence ⇒ supported, through dotted paths", async () => {
    const { client } = await connected();
    expect(client.supports("search")).toBe(true);
    expect(client.supports("search.maxK")).toBe(true);
    expect(client.supports("index")).toBe(true);
    expect(client.supports("index.writable")).toBe(false);
    expect(client.supports("x-acme")).toBe(false);
  });

  it("§4.5 notify() sends client notifications only; a server-direction one is -32004", async () => {
    const { client, server } = await connected();
    await client.notify("notifications/cancel", { id: 42 });
    await expect(client.notify("notifications/progress", {})).rejects.toMatchObject({ code: -32004 });
    await client.call("ping", {});
    expect(server.received.map((frame) => frame.method)).toEqual(["initialize", "notifications/cancel", "ping"]);
  });
});

describe("the server hanging up (§13.1)", () => {
  it("§13.1 answers already sent are delivered, then pending calls fail with a TransportError", async () => {
    const pair = createMemoryTransportPair();
    const received: Array<{ id: number }> = [];
    pair.server.onMessage((json) => {
      received.push(JSON.parse(json) as { id: number });
      if (received.length === 3) {
        pair.server.send(JSON.stringify({ jsonrpc: "2.0", id: received[0]!.id, result: { first: true } }));
        pair.server.close();
      }
    });
    const client = testClient(pair.client);
    const answered = client.call("ping", {});
    const abandoned = failureOf(client.call("ping", {}));
    await client.notify("notifications/cancel", { id: 0 });
    expect(await answered).toEqual({ first: true });
    expect(await abandoned).toBeInstanceOf(TransportError);
  });
});
