/**
 * The MCP clients the bridge is tested with, none written here: the SDK v2 `Client` (default
 * handshake, and `versionNegotiation: { mode: "auto" }`) and the v1 `@modelcontextprotocol/sdk`
 * client, each over stdio (spawning `rcp-gen mcp`) or Streamable HTTP (an `rcp-gen mcp --listen`
 * process), behind one face so that every client runs the same scenarios (scenarios.ts).
 */
import type { Readable } from "node:stream";
import { Client, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { bridgeCommand } from "./bridge-process.js";

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, unknown>; required?: string[] };
  outputSchema?: { properties?: Record<string, unknown> };
  annotations?: Record<string, unknown>;
}

export interface ToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

export interface CallOptions {
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  signal?: AbortSignal;
  /** `_meta` of the tools/call request. */
  meta?: Record<string, unknown>;
  /** The log level asked for: `logging/setLevel` on a 2025 connection, the request's `_meta` in 2026-07-28. */
  level?: "warning" | "info";
}

export interface McpTestClient {
  /** The protocol version negotiated, where the client says (v2). */
  readonly version: string | undefined;
  readonly logs: Array<{ level: string; logger?: string; data: unknown }>;
  /** Every message the client received, in wire order (see recordInbound). */
  readonly wire: readonly WireMessage[];
  listTools(): Promise<ListedTool[]>;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
  close(): Promise<void>;
}

export type Target = { stdio: true } | { url: string };

export interface WireMessage {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
}

/**
 * Records what a connected client's transport delivers, in wire order, ahead of the SDK's own
 * dispatch. The SDK clients (v1 and v2) run a notification's handler a microtask after reading
 * it, so a progress notification read in the same chunk as its response finds its handler
 * already gone and is dropped (modelcontextprotocol/typescript-sdk#2580): whether progress
 * came before the result is a property of the wire, asserted here, not of `onprogress`.
 */
export function recordInbound<M extends object>(transport: {
  onmessage?: ((message: M, ...rest: never[]) => void) | undefined;
}): WireMessage[] {
  const wire: WireMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, ...rest) => {
    wire.push(message);
    deliver?.(message, ...rest);
  };
  return wire;
}

/** Where a stdio bridge's stderr (its engine's too) goes: the test reads the engine's abort lines there. */
export interface StderrSink {
  text: string;
}

export async function connectV2(
  target: Target,
  stderr: StderrSink,
  negotiation: "default" | "auto",
): Promise<McpTestClient> {
  const client = new Client(
    { name: "rcp-gen-tests", version: "0.0.0" },
    negotiation === "auto" ? { versionNegotiation: { mode: "auto" } } : {},
  );
  const logs: McpTestClient["logs"] = [];
  client.setNotificationHandler("notifications/message", (notification) => void logs.push(notification.params));
  const transport =
    "url" in target
      ? new StreamableHTTPClientTransport(new URL(target.url))
      : new StdioClientTransport({ ...bridgeCommand(), stderr: "pipe" });
  if (transport instanceof StdioClientTransport)
    (transport.stderr as Readable).setEncoding("utf8").on("data", (chunk: string) => (stderr.text += chunk));
  await client.connect(transport);
  const wire = recordInbound(transport);
  const version = client.getNegotiatedProtocolVersion();
  const modern = version === "2026-07-28";
  return {
    version,
    logs,
    wire,
    listTools: async () => (await client.listTools()).tools as ListedTool[],
    async callTool(name, args, options = {}) {
      if (!modern && options.level !== undefined) await client.setLoggingLevel(options.level);
      const meta = { ...options.meta, ...(modern && options.level ? { [LOG_LEVEL_META_KEY]: options.level } : {}) };
      return client.callTool(
        { name, arguments: args, ...(Object.keys(meta).length === 0 ? {} : { _meta: meta }) },
        {
          ...(options.onprogress ? { onprogress: options.onprogress } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
    },
    close: () => client.close(),
  };
}

export async function connectV1(target: Target, stderr: StderrSink): Promise<McpTestClient> {
  const client = new V1Client({ name: "rcp-gen-tests", version: "0.0.0" });
  const logs: McpTestClient["logs"] = [];
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (notification) => void logs.push(notification.params),
  );
  const transport =
    "url" in target
      ? new V1StreamableHTTPClientTransport(new URL(target.url))
      : new V1StdioClientTransport({ ...bridgeCommand(), stderr: "pipe" });
  if (transport instanceof V1StdioClientTransport)
    (transport.stderr as Readable).setEncoding("utf8").on("data", (chunk: string) => (stderr.text += chunk));
  await client.connect(transport);
  const wire = recordInbound(transport);
  return {
    version: undefined,
    logs,
    wire,
    listTools: async () => (await client.listTools()).tools,
    async callTool(name, args, options = {}) {
      if (options.level !== undefined) await client.setLoggingLevel(options.level);
      return client.callTool({ name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) }, undefined, {
        ...(options.onprogress ? { onprogress: options.onprogress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }) as Promise<ToolResult>;
    },
    close: () => client.close(),
  };
}
