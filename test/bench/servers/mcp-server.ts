/**
 * The MCP TypeScript SDK peer: the same fixed retrieve result served as a tool, with its
 * arguments validated by the SDK (zod), returned the usual MCP way as JSON text content.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { buildRetrieveResult } from "../fixture.js";

export function createBenchMcpServer(): McpServer {
  const server = new McpServer({ name: "bench-mcp", version: "1.0.0" });
  server.registerTool(
    "retrieve",
    {
      description: "Returns the bench's fixed 3-hit retrieve result.",
      inputSchema: { query: z.string(), k: z.number().int().min(1).optional() },
    },
    () => ({ content: [{ type: "text", text: JSON.stringify(buildRetrieveResult()) }] }),
  );
  return server;
}
