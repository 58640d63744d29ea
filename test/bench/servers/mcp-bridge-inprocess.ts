/**
 * Scenario 12's bridge over an in-process engine: the generated RCP/1 server answering
 * retrieve with the bench's fixed result (validating params and result as in production),
 * connected in memory, served as MCP over stdio by `@rcp-gen/runtime/mcp` with the generated
 * mcp.ts tools.
 */
import { McpBridge, serveMcpStdio } from "@rcp-gen/runtime/mcp";
import { connectMemory } from "../../../generated/client.js";
import { mcpTools } from "../../../generated/mcp.js";
import { createServer } from "../../../generated/server.js";
import { buildRetrieveResult } from "../fixture.js";

const server = createServer({
  info: { name: "bench-ours", version: "1.0.0" },
  capabilities: { retrieve: { maxK: 50, modes: ["dense", "sparse", "hybrid"] } },
  conformance: "L0",
  handlers: { retrieve: () => buildRetrieveResult() },
});
const bridge = new McpBridge({ engine: await connectMemory(server), tools: mcpTools });
await serveMcpStdio(bridge).closed;
process.exit(0);
