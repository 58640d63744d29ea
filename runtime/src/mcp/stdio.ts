/** The bridge over stdio: the SDK's serveStdio, which answers either MCP era per connection. */
import type { Readable, Writable } from "node:stream";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { McpBridge } from "./bridge.js";

export interface McpStdioOptions {
  /** Default process.stdin. */
  stdin?: Readable;
  /** Default process.stdout: it then carries MCP frames only. */
  stdout?: Writable;
}

export interface McpStdioHandle {
  /** Resolves when the client closes stdin (or close() is called). */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export function serveMcpStdio(bridge: McpBridge, options: McpStdioOptions = {}): McpStdioHandle {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const handle = serveStdio(() => bridge.newServer(), { transport });
  const closed = new Promise<void>((resolve) => {
    stdin.once("end", resolve);
    stdin.once("close", resolve);
  });
  return {
    closed,
    close: () => handle.close(),
  };
}
