/**
 * An RCP engine as an MCP server: each tool the engine advertises, called through an RCP
 * client (a generated one over stdio or HTTP, or connectMemory's over an in-process server).
 * The request-scoped streaming rules hold on every transport: a call that carries a progress
 * token gets its RCP progress as `notifications/progress`; one whose client asked for a log
 * level (`logging/setLevel` on a 2025 connection, `_meta` of the request in 2026-07-28) gets
 * the RCP log lines at or above it as `notifications/message`, and none otherwise; MCP's
 * cancellation (`notifications/cancelled`, or the HTTP stream closing) aborts the RCP call.
 * An RCP error is a tool result with `isError`, carrying the code, message and data.
 *
 * It is built on the SDK's low-level `Server`, not `McpServer`: McpServer would check every
 * call's arguments and structured result against the tool's schemas, which the engine (params)
 * and the RCP client (result) already check with the generated validators.
 */
import {
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
  type Tool,
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

export class McpBridge {
  /** The tools served: those whose capability (and `requires`) the engine advertised. */
  readonly tools: readonly McpToolDescriptor[];
  readonly #engine: McpEngine;
  readonly #serverInfo: { name: string; version: string };
  /** Built once: every MCP server instance (one per connection, session or modern request) shares them. */
  readonly #listed: Tool[];
  readonly #byName: ReadonlyMap<string, McpToolDescriptor>;

  constructor(options: McpBridgeOptions) {
    this.#engine = options.engine;
    this.#serverInfo = options.serverInfo ??
      (options.engine.serverInfo && { ...options.engine.serverInfo }) ?? { name: "rcp-mcp-bridge", version: "0.0.0" };
    this.tools = options.tools.filter((tool) =>
      [tool.capability, tool.requires].every((path) => !path || options.engine.supports(path)),
    );
    this.#listed = this.tools.map((tool) => ({
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      description: tool.description,
      inputSchema: tool.inputSchema as Tool["inputSchema"],
      outputSchema: tool.outputSchema,
      annotations: { ...tool.annotations },
    }));
    this.#byName = new Map(this.tools.map((tool) => [tool.name, tool]));
  }

  /** A fresh MCP server serving the tools: the factory `serveStdio` and `createMcpHandler` take. */
  newServer(): Server {
    const server = new Server(this.#serverInfo, { capabilities: { tools: {}, logging: {} } });
    // The 2025 level of this connection or session. The SDK's own handler would keep it too, but
    // its log() forwards everything until a level is set, where request-scoped streaming asks for silence.
    let sessionLevel: McpLevel | undefined;
    server.setRequestHandler("logging/setLevel", (request) => {
      sessionLevel = request.params.level;
      return {};
    });
    server.setRequestHandler("tools/list", () => ({ tools: this.#listed }));
    server.setRequestHandler("tools/call", async (request, ctx) => {
      const { name, arguments: args } = request.params;
      const tool = this.#byName.get(name);
      if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      const result = await this.#call(tool, args ?? {}, ctx, sessionLevel);
      return server.projectCallToolResult(result, tool.outputSchema);
    });
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
    // notify() hands a notification to the transport asynchronously, as the SDK does the
    // result: the result waits for them, so it cannot overtake its own progress.
    const sent: Promise<void>[] = [];
    const notify = (notification: Parameters<typeof ctx.mcpReq.notify>[0]): void => {
      sent.push(ctx.mcpReq.notify(notification).catch(() => undefined));
    };
    if (progressToken !== undefined && tool.streaming) {
      let last = -1;
      options.onProgress = (event) => {
        // MCP's progress must increase; RCP's only never decreases (§9).
        if (event.progress <= last) return;
        last = event.progress;
        const message = [event.stage, event.message].filter((part) => part !== undefined).join(": ");
        notify({
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
        notify({ method: "notifications/message", params: logParams(line) });
      };
    }
    const outcome = await this.#engine.call(tool.method, args, options).then(
      (result): CallToolResult => ({
        content: [{ type: "text", text: readableResult(tool.method, result) }],
        structuredContent: result,
      }),
      errorResult,
    );
    await Promise.all(sent);
    return outcome;
  }
}

function errorResult(error: unknown): CallToolResult {
  if (!(error instanceof RcpError)) return { isError: true, content: [{ type: "text", text: String(error) }] };
  const { code, message, data } = error;
  const detail = { code, message, ...(data === undefined ? {} : { data }) };
  return {
    isError: true,
    content: [{ type: "text", text: `RCP error ${code}: ${message}\n${JSON.stringify({ error: detail })}` }],
  };
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
