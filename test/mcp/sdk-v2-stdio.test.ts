/**
 * The MCP SDK v2 client against `rcp-gen mcp -- <demo engine>` over stdio, with the default
 * handshake (2025-11-25) and with `versionNegotiation: { mode: "auto" }` (2026-07-28).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectV2, type McpTestClient, type StderrSink } from "./mcp-clients.js";
import { bridgeScenarios } from "./scenarios.js";

describe.each([
  { negotiation: "default" as const, era: "2025-11-25" },
  { negotiation: "auto" as const, era: "2026-07-28" },
])("MCP SDK v2 client ($negotiation handshake) over stdio", ({ negotiation, era }) => {
  let client: McpTestClient;
  const stderr: StderrSink = { text: "" };
  beforeAll(async () => {
    client = await connectV2({ stdio: true }, stderr, negotiation);
  }, 90_000);
  afterAll(() => client?.close());

  it(`negotiates ${era}`, () => expect(client.version).toBe(era));
  bridgeScenarios(
    () => client,
    () => stderr.text,
  );
});
