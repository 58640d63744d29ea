/** The v1 MCP SDK client (`@modelcontextprotocol/sdk` 1.32.2) against `rcp-gen mcp -- <demo engine>` over stdio. */
import { afterAll, beforeAll, describe } from "vitest";
import { connectV1, type McpTestClient, type StderrSink } from "./mcp-clients.js";
import { bridgeScenarios } from "./scenarios.js";

describe("MCP SDK v1 client over stdio", () => {
  let client: McpTestClient;
  const stderr: StderrSink = { text: "" };
  beforeAll(async () => {
    client = await connectV1({ stdio: true }, stderr);
  }, 90_000);
  afterAll(() => client?.close());

  bridgeScenarios(
    () => client,
    () => stderr.text,
  );
});
