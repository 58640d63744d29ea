/**
 * connectMemory: the generated, typed client wired to a server in the same process, with no
 * child process and no socket, so a handler can be unit-tested through the real protocol.
 */
import { afterAll, describe, expect, it } from "vitest";
import { connectMemory, createServer, type RetrieveResult } from "../../generated/index.js";
import { CallError } from "@rcp-gen/runtime";
import { createDemoServer } from "../../docs/examples/demo-engine/server.js";

const systemResources = () =>
  process.getActiveResourcesInfo().filter((kind) => /TCP|Pipe|Process|UDP/i.test(kind)).length;

describe("connectMemory(server)", () => {
  const demo = createDemoServer();
  afterAll(() => demo.close());

  it("returns the typed client, initialized, streaming progress from the demo engine", async () => {
    const before = systemResources();
    const client = await connectMemory(demo, { capabilities: { streaming: {} } });
    expect(client.serverInfo?.name).toBe("rcp-demo-engine");
    expect(client.conformance).toBe("L2");
    const stages: string[] = [];
    const result: RetrieveResult = await client.retrieve(
      { query: "compost for tomatoes", k: 2 },
      { onProgress: (event) => stages.push(event.stage ?? "") },
    );
    expect(result.hits).toHaveLength(2);
    expect(stages[0]).toBe("recall");
    expect(systemResources()).toBe(before);
    await client.close();
  });

  it("runs the runtime's rules in front of a handler under test: params (-32602), gates (-32005), clamps", async () => {
    const seen: number[] = [];
    const server = createServer({
      info: { name: "unit", version: "1" },
      conformance: "L0",
      capabilities: { retrieve: { maxK: 4, modes: ["sparse"] } },
      handlers: {
        retrieve(params) {
          seen.push(params.k);
          return { hits: [{ id: "only", score: 1 }] };
        },
      },
    });
    const client = await connectMemory(server);
    await expect(client.retrieve({ query: "q", k: 100 })).resolves.toEqual({ hits: [{ id: "only", score: 1 }] });
    expect(seen).toEqual([4]);
    const wrongMode = await client.retrieve({ query: "q", k: 1, mode: "dense" }).catch((error: unknown) => error);
    expect(wrongMode).toBeInstanceOf(CallError);
    expect(wrongMode).toMatchObject({ code: -32005, data: { option: "mode" } });
    await expect(client.retrieve({ query: "q", k: -1 })).rejects.toMatchObject({ code: -32602, data: { field: "k" } });
    await client.close();
    await server.close();
  });

  it("introduces the client as rcp-memory-client in initialize unless given a clientInfo (§7.1)", async () => {
    const clients: unknown[] = [];
    const server = createServer({
      info: { name: "unit", version: "1" },
      conformance: "L0",
      capabilities: { retrieve: { maxK: 1 } },
      handlers: { retrieve: () => ({ hits: [] }) },
      observeInbound: (message) => {
        const frame = message as { method?: string; params?: { client?: unknown } };
        if (frame.method === "initialize") clients.push(frame.params?.client);
        return undefined;
      },
    });
    for (const options of [{}, { clientInfo: { name: "mine", version: "2" } }])
      await (await connectMemory(server, options)).close();
    expect(clients).toEqual([
      { name: "rcp-memory-client", version: "0.0.0" },
      { name: "mine", version: "2" },
    ]);
    await server.close();
  });
});
