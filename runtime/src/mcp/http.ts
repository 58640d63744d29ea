/**
 * The bridge over Streamable HTTP, both MCP eras on one endpoint (a Web-standard fetch handler):
 * a 2026-07-28 request goes to the SDK's `createMcpHandler` (an MCP server per request, its log
 * level in the request's `_meta`); a 2025 one to a sessionful
 * `WebStandardStreamableHTTPServerTransport`, one MCP server per session, since the SDK's
 * stateless fallback forgets `logging/setLevel` and drops `notifications/cancelled`. The SDK's
 * own classifier (`isLegacyRequest`) decides, and its validation helpers check Host and Origin
 * first (DNS rebinding). With `resumable`, each 2025 session gets the SDK's resumability (event
 * ids, a priming event, replay on `Last-Event-ID`) from an event store of its own (./event-store.ts).
 */
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import type { McpBridge } from "./bridge.js";
import { mcpResumableSettings, McpSessionEventStore, type McpResumableOptions } from "./event-store.js";

export interface McpHttpOptions {
  /** The endpoint's path; default `/mcp`. */
  path?: string;
  /** Host names a request's Host header may name; default the loopback names. */
  allowedHosts?: string[];
  /** Host names a request's Origin may name (a request without Origin passes); default the loopback names. */
  allowedOrigins?: string[];
  /**
   * Lets a 2025 session's client resume a cut stream (Last-Event-ID) instead of losing the
   * call's progress and result: `true` takes every default (frames in memory), an object sets them.
   */
  resumable?: boolean | McpResumableOptions;
}

export interface McpHttpHandler {
  fetch(request: Request): Promise<Response>;
  /** Ends every session and in-flight request. */
  close(): Promise<void>;
}

const SESSION_HEADER = "mcp-session-id";

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** With `resumable`: the session's frames, for a reconnect. */
  readonly eventStore: McpSessionEventStore | undefined;
}

/**
 * A reconnect naming an event that is not this session's (another session's, expired, never
 * sent): the same answer for each, and no frame. 400 as the SDK's own "Invalid event ID"; a 404
 * would tell an MCP client that its session has gone.
 */
const UNKNOWN_EVENT = (): Response =>
  Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "No stream of this session has this event", data: { field: "Last-Event-ID" } },
      id: null,
    },
    { status: 400 },
  );

export function mcpHttpHandler(bridge: McpBridge, options: McpHttpOptions = {}): McpHttpHandler {
  const path = options.path ?? "/mcp";
  const allowedHosts = options.allowedHosts ?? localhostAllowedHostnames();
  const allowedOrigins = options.allowedOrigins ?? localhostAllowedOrigins();
  const modern = createMcpHandler(() => bridge.newServer(), { legacy: "reject" });
  const sessions = new Map<string, Session>();
  const resumable =
    options.resumable === undefined || options.resumable === false
      ? undefined
      : mcpResumableSettings(options.resumable);

  async function legacy(request: Request): Promise<Response> {
    const sessionId = request.headers.get(SESSION_HEADER);
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined)
        return Response.json(
          { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
          { status: 404 },
        );
      const lastEventId = request.method === "GET" ? request.headers.get("last-event-id") : null;
      if (lastEventId !== null && session.eventStore !== undefined && !(await session.eventStore.holds(lastEventId)))
        return UNKNOWN_EVENT();
      return session.transport.handleRequest(request);
    }
    // No session yet: this must be an initialize, which the transport checks and answers.
    const newSessionId = crypto.randomUUID();
    const eventStore = resumable && new McpSessionEventStore(resumable, newSessionId);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => newSessionId,
      onsessioninitialized: (id) => void sessions.set(id, { transport, eventStore }),
      onsessionclosed: (id) => void sessions.delete(id),
      ...(resumable && { eventStore, retryInterval: resumable.retryMs }),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      eventStore?.close();
    };
    await bridge.newServer().connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await transport.close();
    return response;
  }

  return {
    async fetch(request) {
      const rejected =
        hostHeaderValidationResponse(request, allowedHosts) ?? originValidationResponse(request, allowedOrigins);
      if (rejected !== undefined) return rejected;
      if (new URL(request.url).pathname !== path) return new Response("Not Found", { status: 404 });
      // GET (the standalone stream) and DELETE exist only in a 2025 session.
      const isLegacy = request.method === "POST" ? await isLegacyRequest(request) : request.headers.has(SESSION_HEADER);
      return isLegacy ? legacy(request) : modern.fetch(request);
    },
    async close() {
      await Promise.all([...sessions.values()].map(({ transport }) => transport.close()));
      sessions.clear();
      await modern.close();
    },
  };
}
