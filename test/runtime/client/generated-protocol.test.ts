/**
 * The client runtime driven by the generated RCP/1 descriptor (generated/methods.ts)
 * through the generated RcpClient, against the server runtime over an in-memory pair:
 * the real initialize, notification and error schemas route as the inline test protocol does.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { HandlerContext } from "../../../runtime/src/protocol/types.js";
import { RcpError } from "../../../runtime/src/protocol/errors.js";
import { createServerRuntime, type RcpServer } from "../../../runtime/src/server/create-server-runtime.js";
import { createMemoryTransportPair } from "../../../runtime/src/message-stream/memory-pair.js";
import { RcpClient } from "../../../generated/client.js";
import { protocol } from "../../../generated/methods.js";
import type { RetrieveParams } from "../../../generated/types.js";

let server: RcpServer;
let client: RcpClient;
afterEach(async () => {
  await client.close();
  await server.close();
});

// eslint-disable-next-line @typescript-eslint/require-await -- a streaming handler, as users write them: an async generator
async function* retrieve(params: RetrieveParams, ctx: HandlerContext) {
  if (params.query === "offline") throw new RcpError(-32010, "index offline");
  yield { progress: 0.5, stage: "recall", partial: { hits: [{ id: "d1", score: 0.4 }] } };
  ctx.log("info", "reranked", "pipeline");
  return { hits: [{ id: "d1", score: 0.9 }] };
}

async function connectedClient(): Promise<RcpClient> {
  server = createServerRuntime(protocol, {
    info: { name: "generated-protocol-test", version: "1.0.0" },
    capabilities: { retrieve: { maxK: 10, modes: ["dense"] }, streaming: {}, log: {} },
    conformance: "L0",
    handlers: { retrieve },
  });
  const pair = createMemoryTransportPair();
  server.connect(pair.server);
  client = new RcpClient({ transport: pair.client, clientInfo: { name: "generated-test", version: "1.0.0" } });
  await client.connect();
  return client;
}

describe("the generated RCP/1 descriptor drives BaseClient", () => {
  it("§7.1 connect() negotiates RCP/1 and caches the server's declared conformance", async () => {
    const rcp = await connectedClient();
    expect(rcp.protocolVersion).toBe(1);
    expect(rcp.conformance).toBe("L0");
    expect(rcp.supports("retrieve.modes")).toBe(true);
  });

  it("§9 retrieveStream() yields progress, then the result; logs reach onLog", async () => {
    const rcp = await connectedClient();
    const logs: unknown[] = [];
    const events = [];
    for await (const event of rcp.retrieveStream({ query: "q", k: 1 }, { onLog: (log) => logs.push(log) })) {
      events.push(event);
    }
    expect(events).toEqual([
      { type: "progress", progress: 0.5, stage: "recall", partial: { hits: [{ id: "d1", score: 0.4 }] } },
      { type: "result", result: { hits: [{ id: "d1", score: 0.9 }] } },
    ]);
    expect(logs).toEqual([{ level: "info", logger: "pipeline", message: "reranked" }]);
  });

  it("§12.2 retry policy comes from the generated error table; §7 unadvertised embed is -32003 locally", async () => {
    const rcp = await connectedClient();
    await expect(rcp.retrieve({ query: "offline", k: 1 })).rejects.toMatchObject({ code: -32010, retryable: "yes" });
    await expect(rcp.embed({ inputs: ["x"] })).rejects.toMatchObject({ code: -32003, data: { capability: "embed" } });
  });
});
