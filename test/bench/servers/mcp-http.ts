/**
 * The MCP SDK over its streamable HTTP transport, stateless: the SDK's documented pattern
 * builds a fresh server and transport for every request.
 */
import { createServer } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createBenchMcpServer } from "./mcp-server.js";
import { listenAndAnnounce } from "./announce.js";
import { installProbe, streamPlan } from "./probe.js";

installProbe();

const server = createServer((request, response) => {
  const mcp = createBenchMcpServer();
  // JSON responses, except for the SSE scenario, where progress needs the event stream.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: streamPlan() === undefined,
  });
  response.on("close", () => {
    void transport.close();
    void mcp.close();
  });
  void mcp.connect(transport).then(() => transport.handleRequest(request, response));
});
listenAndAnnounce(server);
