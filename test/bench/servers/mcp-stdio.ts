/** The MCP SDK over its stdio transport. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createBenchMcpServer } from "./mcp-server.js";
import { installProbe } from "./probe.js";

installProbe();
await createBenchMcpServer().connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0));
