/**
 * One table of scenarios, run over memory, stdio and HTTP against the project's own
 * server runtime: the client and server halves agree on the wire (§5, §9, §7.14, §12, §17.1).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LogMessage, StreamEvent } from "../../../runtime/src/protocol/types.js";
import type { BaseClient } from "../../../runtime/src/client/base-client.js";
import { httpClientTransport } from "../../../runtime/src/client/http-transport.js";
import { stdioClientTransport } from "../../../runtime/src/client/stdio-transport.js";
import { createMemoryTransportPair } from "../../../runtime/src/message-stream/memory-pair.js";
import { listen, nodeHttpExchange } from "../../../runtime/src/node/index.js";
import type { ClientTestMethods } from "../../fixtures/client-test-protocol.js";
import { createClientTestServer } from "../../fixtures/client-peers/runtime-server.js";
import { testClient } from "./peers.js";
import { entryPath } from "../../fixtures/entry.js";

type Client = BaseClient<ClientTestMethods>;
interface Connected {
  client: Client;
  stop(): Promise<void>;
}

const runtimeServerPath = entryPath("test/fixtures/client-peers/runtime-server.ts");

const transports: Record<string, () => Connected | Promise<Connected>> = {
  memory: () => {
    const server = createClientTestServer();
    const pair = createMemoryTransportPair();
    server.connect(pair.server);
    const client = testClient(pair.client);
    return { client, stop: () => server.close() };
  },
  stdio: () => {
    const transport = stdioClientTransport({ command: process.execPath, args: [runtimeServerPath], stderr: "ignore" });
    return { client: testClient(transport), stop: async () => {} };
  },
  http: async () => {
    const server = createClientTestServer();
    const listening = await listen(server, { port: 0 });
    return { client: testClient(httpClientTransport({ url: listening.url })), stop: () => server.close() };
  },
  "HTTP (nodeHttpExchange)": async () => {
    const server = createClientTestServer();
    const listening = await listen(server, { port: 0 });
    const exchange = nodeHttpExchange();
    const transport = httpClientTransport({ url: listening.url, exchange });
    return {
      client: testClient(transport),
      stop: async () => {
        exchange.close();
        await server.close();
      },
    };
  },
};

describe.each(Object.keys(transports))("client against the server runtime over %s", (name) => {
  let connected: Connected;
  afterEach(async () => {
    await connected.client.close();
    await connected.stop();
  });

  async function connect(): Promise<Client> {
    connected = await transports[name]!();
    await connected.client.connect();
    return connected.client;
  }

  it("§7.1 connect() negotiates the version and caches identity, capabilities and conformance", async () => {
    const client = await connect();
    expect(client.protocolVersion).toBe(2);
    expect(client.serverInfo).toEqual({ name: "runtime-server", version: "1.2.3" });
    expect(client.supports("streaming")).toBe(true);
    expect(client.conformance).toBe("L1");
  });

  it("§9 stream() yields the handler's progress in order, then exactly one result", async () => {
    const client = await connect();
    const events: StreamEvent<unknown, unknown>[] = [];
    for await (const event of client.stream("search", { script: "steps" })) events.push(event);
    expect(events).toEqual([
      { type: "progress", progress: 0.25, stage: "step-0", partial: { hits: ["d1"] } },
      { type: "progress", progress: 0.5, stage: "step-1", partial: { hits: ["d2"] } },
      { type: "progress", progress: 0.75, stage: "step-2", partial: { hits: ["d3"] } },
      { type: "result", result: { hits: ["d1", "d2", "d3"] } },
    ]);
  });

  it("§17.1 onLog receives the call's logs at or above the requested level", async () => {
    const client = await connect();
    const logs: LogMessage[] = [];
    await client.call("search", { script: "steps" }, { onLog: (log) => logs.push(log), logLevel: "warning" });
    expect(logs).toEqual([{ level: "warning", logger: "pipeline", message: "almost done" }]);
  });

  it("§12.2 a handler's RcpError arrives as a CallError with its code's retry policy", async () => {
    const client = await connect();
    await expect(client.call("search", { script: "fail" })).rejects.toMatchObject({
      code: -32010,
      message: "index is rebuilding",
      data: { retryAfterMs: 100 },
      retryable: "yes",
    });
  });

  it("§7.14 leaving a stream early cancels the call on the server", async () => {
    const client = await connect();
    const cancelledCount = async (): Promise<unknown> =>
      (await client.call("search", { script: "cancelledCount" })).cancelled;
    const before = (await cancelledCount()) as number;
    for await (const event of client.stream("search", { script: "hold" })) {
      expect(event).toEqual({ type: "progress", progress: 0.1, stage: "holding" });
      break;
    }
    await vi.waitFor(async () => expect(await cancelledCount()).toBe(before + 1));
  });
});
