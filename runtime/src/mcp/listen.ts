/**
 * The HTTP bridge on node:http, mounted with `@modelcontextprotocol/node`'s `toNodeHandler`
 * (the SDK's Node adapter: Request in, Response streamed out with backpressure, the request's
 * signal aborted when the client goes away), loaded only here: a stdio bridge never needs it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpBridge } from "./bridge.js";
import { mcpHttpHandler, type McpHttpOptions } from "./http.js";

export interface McpListenOptions extends McpHttpOptions {
  /** Default 0: a free port, which `url` names. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface McpListening {
  /** The endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function listenMcp(bridge: McpBridge, options: McpListenOptions = {}): Promise<McpListening> {
  const host = options.host ?? "127.0.0.1";
  const handler = mcpHttpHandler(bridge, options);
  const { toNodeHandler } = await import("@modelcontextprotocol/node");
  const nodeHandler = toNodeHandler(handler);
  const server = createServer((request, response) => void nodeHandler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${options.path ?? "/mcp"}`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
