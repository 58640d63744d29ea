/**
 * The transport-neutral HTTP server (§5.2): routing, the status table, auth, CORS,
 * sessions, and the choice between one buffered JSON body and an SSE stream for the
 * same handler. Adapters (node:http, Web fetch) only translate HttpExchange calls.
 */
import { RATE_LIMITED_RETRY_AFTER_MS, type ServerCore } from "../core.js";
import type { FrameChannel } from "../context.js";
import type { HttpExchange } from "./exchange.js";
import type { HttpOptions } from "./options.js";
import type { Connection } from "../connection.js";
import { decodeUtf8, NOT_UTF8_MESSAGE } from "../framing/utf8.js";
import { ErrorCode } from "../errors.js";
import { errorFrame } from "../json.js";
import { isRecord } from "../paths.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseFrame } from "../framing/sse.js";
import { HttpSessions, SESSION_HEADER } from "./sessions.js";

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "content-type": "application/json" });
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_MAX_CONCURRENT_REQUESTS = 1024;

export class HttpServerCore {
  readonly basePath: string;
  readonly #core: ServerCore;
  readonly #options: HttpOptions;
  readonly #sessions: HttpSessions;
  readonly #jsonHeaders: Readonly<Record<string, string>>;
  readonly #streamHeaders: Readonly<Record<string, string>>;
  readonly #corsHeaders: Readonly<Record<string, string>> | undefined;
  readonly #maxConcurrent: number;
  #active = 0;

  constructor(core: ServerCore, options: HttpOptions = core.http) {
    this.#core = core;
    this.#options = options;
    this.basePath = trimSlash(options.basePath ?? "/rcp");
    this.#sessions = new HttpSessions(core, options.sessions === "stateful", options.maxSessions);
    const cors = options.cors;
    this.#corsHeaders = cors && {
      "access-control-allow-origin": cors.origin,
      "access-control-expose-headers": SESSION_HEADER,
      ...(cors.origin === "*" ? {} : { vary: "Origin" }),
    };
    this.#jsonHeaders = { ...JSON_HEADERS, ...this.#corsHeaders };
    this.#streamHeaders = { ...SSE_HEADERS, ...this.#corsHeaders };
    this.#maxConcurrent = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
  }

  async serve(exchange: HttpExchange): Promise<void> {
    const { method: verb, path } = exchange.request;
    const rcpMethod = this.#methodFromPath(path);
    if (rcpMethod === undefined)
      return exchange.respond(404, this.#withCors({ "content-type": "text/plain" }), "Not an RCP endpoint");
    if (verb === "OPTIONS" && this.#options.cors) return exchange.respond(204, this.#preflightHeaders(), "");
    if (verb !== "POST")
      return exchange.respond(405, this.#withCors({ allow: "POST", "content-type": "text/plain" }), "Use POST");
    const authenticate = this.#options.authenticate;
    if (authenticate && !(await authenticate(exchange.request))) {
      return this.#fail(exchange, 401, ErrorCode.Unauthorized, "Unauthorized");
    }
    if (this.#active >= this.#maxConcurrent) return this.#shed(exchange);
    this.#active++;
    try {
      await this.#dispatch(exchange, rcpMethod);
    } finally {
      this.#active--;
    }
  }

  /** From the body to the answer: one buffered JSON response, 204, or an SSE stream. */
  async #dispatch(exchange: HttpExchange, rcpMethod: string): Promise<void> {
    const limit = this.#core.limits.maxMessageBytes;
    const body = await exchange.readBody(limit);
    if (body === null)
      return this.#fail(exchange, 413, ErrorCode.PayloadTooLarge, `Payload too large: the body exceeds ${limit} bytes`);
    const text = decodeUtf8(body);
    if (text === undefined) return this.#fail(exchange, 400, ErrorCode.ParseError, NOT_UTF8_MESSAGE);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return this.#fail(exchange, 400, ErrorCode.ParseError, "Parse error: invalid JSON");
    }
    const mismatch = pathMismatch(rcpMethod, message);
    if (mismatch !== undefined) return exchange.respond(200, this.#jsonHeaders, mismatch);
    const token = exchange.request.headers[SESSION_HEADER_LOWER];
    const connection = this.#sessions.resolve(typeof token === "string" ? token : undefined, message);
    exchange.onAbort(() => abandonExchange(connection, message));
    if (this.#wantsStream(exchange, message)) return this.#stream(exchange, connection, message);
    const reply = this.#core.handleMessage(connection, message, undefined);
    const frame = typeof reply === "object" ? await reply : reply;
    this.#sessions.settle(connection, message);
    if (frame === undefined) return exchange.respond(204, this.#withCors({}), "");
    exchange.respond(200, this.#sessions.headers(connection, this.#jsonHeaders), frame);
  }

  /** SSE: frames flushed as they happen, then the response as the final frame (§5.2, §9). */
  async #stream(exchange: HttpExchange, connection: Connection, message: unknown): Promise<void> {
    exchange.startStream(this.#sessions.headers(connection, this.#streamHeaders));
    let silent = true;
    const channel: FrameChannel = {
      send(frame) {
        silent = false;
        exchange.write(sseFrame(frame));
      },
    };
    const keepAlive = setInterval(() => {
      if (silent) exchange.write(SSE_KEEP_ALIVE);
      silent = true;
    }, this.#options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
    try {
      const reply = this.#core.handleMessage(connection, message, channel);
      const frame = typeof reply === "object" ? await reply : reply;
      this.#sessions.settle(connection, message);
      if (frame !== undefined) exchange.write(sseFrame(frame));
    } catch {
      // Never a second status line once streaming: the failure is the final frame.
      exchange.write(
        sseFrame(errorFrame(requestId(message), { code: ErrorCode.InternalError, message: "Internal error" })),
      );
    } finally {
      clearInterval(keepAlive);
      exchange.end();
    }
  }

  #wantsStream(exchange: HttpExchange, message: unknown): boolean {
    if (!isRecord(message) || message.id === undefined) return false;
    const accept = exchange.request.headers.accept;
    return typeof accept === "string" && accept.includes("text/event-stream") && this.#core.streaming;
  }

  /** The RCP method named by the path: "" for the base itself (batches), undefined off the base. */
  #methodFromPath(path: string): string | undefined {
    if (!path.startsWith(this.basePath)) return undefined;
    const rest = path.slice(this.basePath.length);
    if (rest === "" || rest === "/") return "";
    if (rest[0] !== "/") return undefined;
    try {
      return decodeURIComponent(rest.slice(1));
    } catch {
      return undefined;
    }
  }

  /** §5.2 429 mirrors -32011; both say when to come back (§12.2). */
  #shed(exchange: HttpExchange): void {
    const retryAfterSeconds = Math.ceil(RATE_LIMITED_RETRY_AFTER_MS / 1000);
    exchange.respond(
      429,
      { ...this.#jsonHeaders, "retry-after": String(retryAfterSeconds) },
      errorFrame(null, {
        code: ErrorCode.RateLimited,
        message: `Rate limited: ${this.#maxConcurrent} requests are in progress`,
        data: { retryable: true, retryAfterMs: RATE_LIMITED_RETRY_AFTER_MS },
      }),
    );
  }

  #fail(exchange: HttpExchange, status: number, code: number, message: string): void {
    exchange.respond(status, this.#jsonHeaders, errorFrame(null, { code, message }));
  }

  #withCors(headers: Record<string, string>): Record<string, string> {
    return this.#corsHeaders ? { ...headers, ...this.#corsHeaders } : headers;
  }

  #preflightHeaders(): Record<string, string> {
    const cors = this.#options.cors!;
    const allowed = ["content-type", "accept", "authorization", SESSION_HEADER_LOWER, ...(cors.allowHeaders ?? [])];
    return this.#withCors({
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": allowed.join(", "),
      "access-control-max-age": String(cors.maxAgeSeconds ?? 600),
    });
  }
}

const SESSION_HEADER_LOWER = SESSION_HEADER.toLowerCase();

/** §5.2: the path's method must match the body's; a batch goes to the base path. */
function pathMismatch(pathMethod: string, message: unknown): string | undefined {
  if (pathMethod === "") return undefined;
  if (Array.isArray(message)) {
    return errorFrame(null, {
      code: ErrorCode.InvalidRequest,
      message: "Invalid Request: post a batch to the base path",
    });
  }
  if (!isRecord(message) || message.method === pathMethod) return undefined;
  return errorFrame(requestId(message), {
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: the path names ${pathMethod} but the body names ${String(message.method)} (§5.2)`,
  });
}

/** The client left: abort this exchange's requests only; a stateful session's others go on. */
function abandonExchange(connection: Connection, message: unknown): void {
  for (const member of Array.isArray(message) ? message : [message]) {
    const id = requestId(member);
    if (id !== null) connection.inFlight.get(id)?.abandon();
  }
}

function requestId(message: unknown): string | number | null {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function trimSlash(path: string): string {
  return path.endsWith("/") ? path.slice(0, -1) : path;
}
