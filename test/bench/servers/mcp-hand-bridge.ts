/**
 * Scenario 12's MCP-side floor: what a user would write by hand instead of `rcp-gen mcp`. An MCP
 * SDK v2 server (McpServer) with one `retrieve` tool, registered with the generated mcp.ts
 * schemas, whose handler calls the engine (the command in argv) through the generated RCP client
 * over stdio and returns its result as structured content and JSON text.
 */
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { connectStdio } from "../../../generated/node.js";
import { mcpTools } from "../../../generated/mcp.js";
import type { RetrieveParams } from "../../../generated/types.js";

const [command, ...args] = process.argv.slice(2);
const engine = await connectStdio({
  clientInfo: { name: "bench-mcp-hand-bridge", version: "1.0.0" },
  transport: { command: command!, args },
});
const retrieve = mcpTools.find((tool) => tool.name === "retrieve")!;

serveStdio(() => {
  const server = new McpServer({ name: "bench-mcp-hand-bridge", version: "1.0.0" });
  server.registerTool(
    "retrieve",
    {
      description: retrieve.description,
      inputSchema: fromJsonSchema(retrieve.inputSchema as Record<string, unknown>),
      outputSchema: fromJsonSchema(retrieve.outputSchema as Record<string, unknown>),
    },
    async (params) => {
      const result = await engine.retrieve(params as RetrieveParams);
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: { ...result } };
    },
  );
  return server;
});
process.stdin.once("end", () => void engine.close().then(() => process.exit(0)));
