/**
 * The generated client calls the lifecycle methods a user calls, as it calls every other:
 * ping() (§7.15), info() (§7.2) and shutdown() (§7.12), typed from the schema. initialize has
 * none: connect() sends it. Over an in-memory connection to a generated server.
 */
import { expect, it } from "vitest";
import { connectMemory, createServer, type PingResult } from "../../../generated/index.js";

const server = createServer({
  info: { name: "lifecycle-engine", version: "2.0.0" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 5, modes: ["sparse"] } },
  handlers: { retrieve: () => ({ hits: [] }) },
});

it("ping() echoes its nonce, info() names the server, shutdown() is answered; no initialize()", async () => {
  const client = await connectMemory(server);
  try {
    const pong: PingResult = await client.ping({ nonce: "n-1" });
    expect(pong).toEqual({ nonce: "n-1" });
    expect(await client.ping()).toEqual({});
    const info = await client.info();
    expect(info.server).toEqual({ name: "lifecycle-engine", version: "2.0.0" });
    expect(info.capabilities).toHaveProperty("retrieve");
    expect("initialize" in client).toBe(false);
    await expect(client.shutdown()).resolves.toBeDefined();
  } finally {
    await client.close();
  }
});
