/**
 * Scenario 12's throughput floor: an MCP SDK v2 server with one `retrieve` tool registered with
 * the same fromJsonSchema schemas as the bridge's (generated mcp.ts), returning the bench's
 * fixed result the same two ways (structuredContent, and JSON text), over stdio. The SDK is what
 * the bridge runs on; this is the SDK with nothing behind the tool.
 */
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { mcpTools } from "../../../generated/mcp.js";
import { buildRetrieveResult } from "../fixture.js";

const retrieve = mcpTools.find((tool) => tool.name === "retrieve")!;
const input = fromJsonSchema(retrieve.inputSchema as Record<string, unknown>);
const output = fromJsonSchema(retrieve.outputSchema as Record<string, unknown>);

serveStdio(() => {
  const server = new McpServer({ name: "bench-mcp-canned", version: "1.0.0" });
  server.registerTool(
    "retrieve",
    { description: retrieve.description, inputSchema: input, outputSchema: output },
    () => {
      const result = buildRetrieveResult();
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    },
  );
  return server;
});
process.stdin.once("end", () => process.exit(0));
