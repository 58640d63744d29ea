/**
 * MCP clients nobody here wrote against `rcp-gen mcp --listen 0 -- <demo engine>`, Streamable
 * HTTP at /mcp: the SDK v2 client with the default handshake (a 2025 session on the sessionful
 * transport) and with `versionNegotiation: { mode: "auto" }` (2026-07-28 through
 * createMcpHandler, cancellation by the request's stream closing), and the v1 SDK client.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpBridge, type HttpBridge } from "./bridge-process.js";
import { connectV1, connectV2, type McpTestClient } from "./mcp-clients.js";
import { bridgeScenarios } from "./scenarios.js";

let bridge: HttpBridge;
beforeAll(async () => {
  bridge = await startHttpBridge();
}, 90_000);
afterAll(() => bridge?.close());

const clients = [
  {
    name: "MCP SDK v2 client, default handshake",
    era: "2025-11-25",
    connect: () => connectV2({ url: bridge.url }, { text: "" }, "default"),
  },
  {
    name: "MCP SDK v2 client, versionNegotiation auto",
    era: "2026-07-28",
    connect: () => connectV2({ url: bridge.url }, { text: "" }, "auto"),
  },
  { name: "MCP SDK v1 client", era: undefined, connect: () => connectV1({ url: bridge.url }, { text: "" }) },
];

describe.each(clients)("$name over Streamable HTTP", ({ era, connect }) => {
  let client: McpTestClient;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(() => client?.close());

  if (era !== undefined) it(`negotiates ${era}`, () => expect(client.version).toBe(era));
  bridgeScenarios(
    () => client,
    () => bridge.stderr(),
  );
});

describe("the HTTP endpoint", () => {
  it("refuses a Host it does not serve (DNS rebinding) and a foreign Origin, both 403", async () => {
    const port = new URL(bridge.url).port;
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    });
    // node:http, not fetch: fetch may not set Host.
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; session: string | undefined }>((resolve, reject) => {
        const request = httpRequest(bridge.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        });
        request.on("error", reject);
        request.on("response", (response) => {
          response.resume();
          const session = response.headers["mcp-session-id"];
          resolve({ status: response.statusCode!, session: typeof session === "string" ? session : undefined });
        });
        request.end(initialize);
      });
    expect((await post({ host: `evil.example:${port}` })).status).toBe(403);
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    const allowed = await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` });
    expect(allowed.status).toBe(200);
    expect(allowed.session).toMatch(/.+/);
  });
});
