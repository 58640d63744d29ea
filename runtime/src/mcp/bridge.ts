/**
 * An RCP engine as an MCP server: each tool the engine advertises, called through an RCP
 * client (a generated one over stdio or HTTP, or connectMemory's over an in-process server).
 * The request-scoped streaming rules hold on every transport: a call that carries a progress
 * token gets its RCP progress as `notifications/progress`; one whose client asked for a log
 * level (`logging/setLevel` on a 2025 connection, `_meta` of the request in 2026-07-28) gets
 * the RCP log lines at or above it as `notifications/message`, and none otherwise; MCP's
 * cancellation (`notifications/cancelled`, or the HTTP stream closing) aborts the RCP call.
 * An RCP error is a tool result with `isError`, carrying the code, message and data.
 */
import {
  fromJsonSchema,
  LOG_LEVEL_META_KEY,
  McpServer,
  type CallToolResult,
  type ServerContext,
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import type { CallOptions, JsonObject, LogMessage } from "../protocol/types.js";
import { RcpError } from "../protocol/errors.js";
import { isMcpLevel, passes, rcpLevelFor, type McpLevel } from "./levels.js";
import { readableResult } from "./readable.js";
import type { McpToolDescriptor } from "./tool.js";

/** What the bridge needs of an RCP engine: a connected client (`RcpClient`, `connectMemory(...)`). */
export interface McpEngine {
  call(method: string, params: JsonObject, options?: CallOptions): Promise<unknown>;
  /** Whether the engine advertised a capability path (§6): a tool whose capability it lacks is not listed. */
  supports(path: string): boolean;
  readonly serverInfo?: Readonly<{ name: string; version: string }> | undefined;
}

export interface McpBridgeOptions {
  /** The RCP engine, connected (initialize done), so that its capabilities are known. */
  engine: McpEngine;
  /** The tools of the protocol: `mcpTools` of the generated mcp.ts. */
  tools: readonly McpToolDescriptor[];
  /** The MCP server's name and version; default: the engine's own. */
  serverInfo?: { name: string; version: string };
}

interface ServedTool {
  readonly descriptor: McpToolDescriptor;
  readonly input: StandardSchemaWithJSON;
  readonly output: StandardSchemaWithJSON;
}

export class McpBridge {
  /** The tools served: those whose capability (and `requires`) the engine advertised. */
  readonly tools: readonly McpToolDescriptor[];
  readonly #engine: McpEngine;
  readonly #serverInfo: { name: string; version: string };
  /** Wrapped once: every MCP server instance (one per connection, session or modern request) shares them. */
  readonly #served: readonly ServedTool[];

  constructor(options: McpBridgeOptions) {
    this.#engine = options.engine;
    this.#serverInfo = options.serverInfo ??
      (options.engine.serverInfo && { ...options.engine.serverInfo }) ?? { name: "rcp-mcp-bridge", version: "0.0.0" };
    this.tools = options.tools.filter((tool) =>
      [tool.capability, tool.requires].every((path) => !path || options.engine.supports(path)),
    );
    this.#served = this.tools.map((descriptor) => ({
      descriptor,
      input: fromJsonSchema(descriptor.inputSchema),
      output: fromJsonSchema(descriptor.outputSchema),
    }));
  }

  /** A fresh MCP server serving the tools: the factory `serveStdio` and `createMcpHandler` take. */
  newServer(): McpServer {
    const server = new McpServer(this.#serverInfo, { capabilities: { logging: {} } });
    // The 2025 level of this connection or session. The SDK's own handler would keep it too, but
    // its log() forwards everything until a level is set, where request-scoped streaming asks for silence.
    let sessionLevel: McpLevel | undefined;
    server.server.setRequestHandler("logging/setLevel", (request) => {
      sessionLevel = request.params.level;
      return {};
    });
    for (const { descriptor, input, output } of this.#served)
      server.registerTool(
        descriptor.name,
        {
          ...(descriptor.title === undefined ? {} : { title: descriptor.title }),
          description: descriptor.description,
          inputSchema: input,
          outputSchema: output,
          annotations: { ...descriptor.annotations },
        },
        (args: unknown, ctx: ServerContext) => this.#call(descriptor, args as JsonObject, ctx, sessionLevel),
      );
    return server;
  }

  async #call(
    tool: McpToolDescriptor,
    args: JsonObject,
    ctx: ServerContext,
    sessionLevel: McpLevel | undefined,
  ): Promise<CallToolResult> {
    const { progressToken, ...meta } = (ctx.mcpReq._meta ?? {}) as JsonObject;
    const options: CallOptions = { signal: ctx.mcpReq.signal, meta };
    if (progressToken !== undefined && tool.streaming) {
      let last = -1;
      options.onProgress = (event) => {
        // MCP's progress must increase; RCP's only never decreases (§9).
        if (event.progress <= last) return;
        last = event.progress;
        const message = [event.stage, event.message].filter((part) => part !== undefined).join(": ");
        void ctx.mcpReq.notify({
          method: "notifications/progress",
          params: {
            progressToken: progressToken as string | number,
            progress: event.progress,
            total: 1,
            ...(message === "" ? {} : { message }),
          },
        });
      };
    }
    const threshold = logThreshold(ctx, sessionLevel);
    if (threshold !== undefined) {
      options.logLevel = rcpLevelFor(threshold);
      options.onLog = (line) => {
        if (!passes(line.level, threshold)) return;
        void ctx.mcpReq.notify({ method: "notifications/message", params: logParams(line) });
      };
    }
    try {
      const result = await this.#engine.call(tool.method, args, options);
      return {
        content: [{ type: "text", text: readableResult(tool.method, result) }],
        structuredContent: result as JsonObject,
      };
    } catch (error) {
      if (!(error instanceof RcpError)) throw error;
      const { code, message, data } = error;
      const detail = { code, message, ...(data === undefined ? {} : { data }) };
      return {
        isError: true,
        content: [{ type: "text", text: `RCP error ${code}: ${message}\n${JSON.stringify({ error: detail })}` }],
      };
    }
  }
}

/**
 * The level the client asked for, or undefined for none (then no log line is forwarded): on a
 * 2026-07-28 request, its own `_meta` (the envelope the SDK lifts out); on a 2025 connection,
 * the last `logging/setLevel`.
 */
function logThreshold(ctx: ServerContext, sessionLevel: McpLevel | undefined): McpLevel | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope === undefined) return sessionLevel;
  const level = envelope[LOG_LEVEL_META_KEY];
  return isMcpLevel(level) ? level : undefined;
}

function logParams(line: LogMessage): { level: McpLevel; data: unknown; logger?: string } {
  const data =
    line.message === undefined
      ? line.data
      : line.data === undefined
        ? line.message
        : { message: line.message, data: line.data };
  return {
    level: isMcpLevel(line.level) ? line.level : "info",
    data: data ?? null,
    ...(line.logger === undefined ? {} : { logger: line.logger }),
  };
}
