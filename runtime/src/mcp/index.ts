/**
 * The MCP entry (`@rcp-gen/runtime/mcp`): any RCP engine as an MCP server, one tool per method
 * it advertises (the generated mcp.ts lists them), over stdio or Streamable HTTP, both MCP
 * eras. Built on the MCP TypeScript SDK v2 (`@modelcontextprotocol/server`, and
 * `@modelcontextprotocol/node` for listenMcp), optional peer dependencies that nothing else in
 * the runtime loads.
 */
export { McpBridge, type McpBridgeOptions, type McpEngine } from "./bridge.js";
export { serveMcpStdio, type McpStdioHandle, type McpStdioOptions } from "./stdio.js";
export { mcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from "./http.js";
export type { McpResumableOptions } from "./event-store.js";
export { listenMcp, type McpListening, type McpListenOptions } from "./listen.js";
export type { McpToolDescriptor } from "./tool.js";
