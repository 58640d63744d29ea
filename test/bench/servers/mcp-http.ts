/**
 * The MCP SDK over its streamable HTTP transport, stateless with JSON responses: the SDK's
 * documented pattern builds a fresh server and transport for every request.
 */
import { createServer } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createBenchMcpServer } from "./mcp-server.js";
import { installProbe } from "./probe.js";

installProbe();

const server = createServer((request, response) => {
  const mcp = createBenchMcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  response.on("close", () => {
    void transport.close();
    void mcp.close();
  });
  void mcp.connect(transport).then(() => transport.handleRequest(request, response));
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}` }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
