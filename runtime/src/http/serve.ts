/**
 * The transport-neutral HTTP server (§5.2): what browsers may do (./request-guard.ts),
 * routing, the status table, auth, CORS, sessions, and the choice between one buffered JSON
 * body and an SSE stream for the same handler. Adapters (node:http, Web fetch) only translate
 * HttpExchange calls, so every rule holds the same behind `listen()` and `server.fetch`.
 */
import { RATE_LIMITED_RETRY_AFTER_MS, rateLimited, type Inbound, type ServerCore } from "../server/core.js";
import type { FrameChannel } from "../server/context.js";
import type { HttpExchange, UnreadBody } from "./exchange.js";
import type { HttpOptions } from "./options.js";
import type { Connection } from "../server/connection.js";
import type { AuthInfo, RequestOrigin } from "../protocol/request-origin.js";
import { MalformedFrame, parseFrame } from "../framing/parse-frame.js";
import { ErrorCode, type ErrorObject } from "../protocol/errors.js";
import { errorFrame } from "../protocol/serialize.js";
import { isRecord } from "../protocol/dotted-paths.js";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseFrame } from "../framing/sse.js";
import { HttpSessions, SESSION_HEADER, sessionBucket } from "./sessions.js";
import { clientAddress } from "./client-address.js";
import { isJsonContentType, RequestGuard } from "./request-guard.js";
import { OutboundQueue } from "../server/outbound-queue.js";
import { parseEventId, ResumableStreams, type StreamProducer } from "../resume/streams.js";
import { RESUMABLE_HEADER } from "../resume/wire.js";
import { CANCELLED } from "../server/connection.js";

type Headers = Readonly<Record<string, string>>;

/** The headers of every answer to one request: without CORS, or with those of its allowed origin. */
interface AnswerHeaders {
  readonly json: Headers;
  readonly stream: Headers;
  readonly cors: Headers;
}

const JSON_HEADERS: Headers = Object.freeze({ "content-type": "application/json" });
const NO_CORS: AnswerHeaders = Object.freeze({ json: JSON_HEADERS, stream: SSE_HEADERS, cors: Object.freeze({}) });
const DEFAULT_KEEP_ALIVE_MS = 15_000;
const DEFAULT_MAX_CONCURRENT_REQUESTS = 1024;
const DEFAULT_MAX_PENDING_BODIES = 256;
const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** How long a body must have been arriving before a newer one may push it out. */
const EVICTABLE_AFTER_MS = 100;
/** The answer to a body that will not be read whole: status, code and message (`{limit}`: the byte limit). */
const UNREAD_BODY_ANSWERS: Readonly<Record<UnreadBody, readonly [number, number, string]>> = {
  "too-large": [413, ErrorCode.PayloadTooLarge, "Payload too large: the body exceeds {limit} bytes"],
  "given-up": [408, ErrorCode.Timeout, "Request timeout: the body did not arrive in time"],
  malformed: [400, ErrorCode.ParseError, "Parse error: the body's HTTP framing is malformed"],
};

export class HttpServerCore {
  readonly basePath: string;
  readonly #core: ServerCore;
  readonly #options: HttpOptions;
  readonly #sessions: HttpSessions;
  readonly #guard: RequestGuard;
  readonly #maxConcurrent: number;
  readonly #trustedProxies: ReadonlySet<string>;
  #active = 0;
  /** Bodies being received, oldest first: how to give up on each, and since when it has been awaited. */
  readonly #pendingBodies = new Map<() => void, number>();
  readonly #maxPendingBodies: number;
  readonly #bodyTimeoutMs: number;
  /** Set when the server offers resumable streams (docs/resumable-streams.md). */
  readonly #resumable: ResumableStreams | undefined;

  constructor(core: ServerCore, options: HttpOptions = core.http) {
    this.#core = core;
    this.#options = options;
    this.basePath = trimSlash(options.basePath ?? "/rcp");
    this.#sessions = new HttpSessions(core, options);
    this.#guard = new RequestGuard(options, SESSION_HEADER);
    this.#maxConcurrent = options.maxConcurrentRequests ?? DEFAULT_MAX_CONCURRENT_REQUESTS;
    this.#maxPendingBodies = options.maxPendingBodies ?? DEFAULT_MAX_PENDING_BODIES;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
    this.#trustedProxies = new Set(options.trustedProxies ?? []);
    const resumable = options.resumable;
    this.#resumable =
      resumable === undefined || resumable === false || !core.streaming
        ? undefined
        : new ResumableStreams(resumable === true ? {} : resumable, (line) => core.diagnose(line));
  }

  async serve(exchange: HttpExchange): Promise<void> {
    const { method: verb, path, headers } = exchange.request;
    if (Array.isArray(headers.host))
      return this.#fail(exchange, NO_CORS, 400, ErrorCode.InvalidRequest, "Bad Request: more than one Host header");
    const host = headers.host;
    if (!this.#guard.hostAllowed(host)) {
      return this.#fail(
        exchange,
        NO_CORS,
        403,
        ErrorCode.Unauthorized,
        `Forbidden: Host ${host} is not allowed; list it in http.allowedHosts`,
      );
    }
    const origin = headerValue(headers.origin);
    if (origin !== undefined && !this.#guard.originAllowed(origin)) {
      return this.#fail(
        exchange,
        NO_CORS,
        403,
        ErrorCode.Unauthorized,
        `Forbidden: origin ${origin} is not allowed; list it in http.cors.origins`,
      );
    }
    const answer = origin === undefined ? NO_CORS : this.#answerHeaders(origin);
    const rcpMethod = this.#methodFromPath(path);
    if (rcpMethod === undefined)
      return exchange.respond(404, { ...answer.cors, "content-type": "text/plain" }, "Not an RCP endpoint");
    if (verb === "OPTIONS" && origin !== undefined)
      return exchange.respond(204, this.#guard.preflightHeaders(origin), "");
    if ((verb === "GET" || verb === "DELETE") && rcpMethod === "" && this.#resumable !== undefined)
      return this.#resume(exchange, answer, verb === "DELETE");
    if (verb !== "POST")
      return exchange.respond(405, { ...answer.cors, allow: "POST", "content-type": "text/plain" }, "Use POST");
    // Before auth: a browser's "simple" request (text/plain, a form) must never reach a handler.
    if (!isJsonContentType(headerValue(headers["content-type"]))) {
      return this.#fail(
        exchange,
        answer,
        415,
        ErrorCode.InvalidRequest,
        "Invalid Request: the body must be application/json (§5.2)",
      );
    }
    // No await without a hook: the body must be read in this turn (the parser's verdict on it is awaited there).
    const auth = this.#options.authenticate === undefined ? undefined : await this.#authenticate(exchange, answer);
    if (auth === false) return;
    const body = await this.#receive(exchange, answer);
    if (body === undefined) return;
    // The slot is taken once the body is complete: a client sending slowly holds a pending
    // body (bounded apart, above), never a slot of the requests being handled.
    if (this.#active >= this.#maxConcurrent) return this.#shed(exchange, answer);
    this.#active++;
    try {
      await this.#dispatch(exchange, body, rcpMethod, answer, { auth, transport: { kind: "http", headers } });
    } finally {
      this.#active--;
    }
  }

  /** The caller's identity (undefined: anonymous), or false once refused with 401. */
  async #authenticate(exchange: HttpExchange, answer: AnswerHeaders): Promise<AuthInfo | undefined | false> {
    const authenticate = this.#options.authenticate;
    if (!authenticate) return undefined;
    const verdict = await authenticate(exchange.request);
    if (!verdict) {
      this.#fail(exchange, answer, 401, ErrorCode.Unauthorized, "Unauthorized");
      return false;
    }
    return verdict === true ? undefined : verdict;
  }

  /**
   * The whole body, or undefined once it has been answered: too large (413), too slow (408) or
   * broken framing (400). A body still arriving holds a pending place; past `maxPendingBodies`
   * the one that has waited longest is given up, unless it has only just started: a burst of
   * ordinary requests, whose bodies complete within a turn of the event loop, must not push each
   * other out.
   */
  async #receive(exchange: HttpExchange, answer: AnswerHeaders): Promise<Uint8Array | undefined> {
    const limit = this.#core.limits.maxMessageBytes;
    if (exchange.bodyArrived) return this.#checkedBody(exchange, answer, await exchange.readBody(limit), limit);
    const giveUp = (): void => exchange.giveUpBody();
    const pending = this.#pendingBodies;
    pending.set(giveUp, performance.now());
    if (pending.size > this.#maxPendingBodies) {
      const [oldest, since] = pending.entries().next().value!;
      if (performance.now() - since >= EVICTABLE_AFTER_MS) oldest();
    }
    const timer = setTimeout(giveUp, this.#bodyTimeoutMs);
    try {
      return this.#checkedBody(exchange, answer, await exchange.readBody(limit), limit);
    } finally {
      clearTimeout(timer);
      pending.delete(giveUp);
    }
  }

  #checkedBody(
    exchange: HttpExchange,
    answer: AnswerHeaders,
    body: Uint8Array | UnreadBody,
    limit: number,
  ): Uint8Array | undefined {
    if (body instanceof Uint8Array) return body;
    const [status, code, message] = UNREAD_BODY_ANSWERS[body];
    this.#fail(exchange, answer, status, code, message.replace("{limit}", String(limit)));
    return undefined;
  }

  #answerHeaders(origin: string): AnswerHeaders {
    const cors = this.#guard.corsHeaders(origin);
    return { json: { ...JSON_HEADERS, ...cors }, stream: { ...SSE_HEADERS, ...cors }, cors };
  }

  /** From the body to the answer: one buffered JSON response, 204, or an SSE stream. */
  async #dispatch(
    exchange: HttpExchange,
    body: Uint8Array,
    rcpMethod: string,
    answer: AnswerHeaders,
    origin: RequestOrigin,
  ): Promise<void> {
    const message = parseFrame(body);
    if (message instanceof MalformedFrame) return exchange.respond(400, answer.json, errorFrame(null, message.error));
    const mismatch = pathMismatch(rcpMethod, message);
    if (mismatch !== undefined) return exchange.respond(200, answer.json, mismatch);
    const sessions = this.#sessions;
    let connection: Connection;
    let taken: number | undefined;
    const limit = this.#core.rateLimit;
    if (!sessions.stateful) connection = sessions.stateless();
    else {
      const token = exchange.request.headers[SESSION_HEADER_LOWER];
      // A session's bucket is taken along with the session lookup when the store can (one round trip).
      const cost = requestCost(message);
      const take = limit !== undefined && origin.auth?.subject === undefined && cost > 0 ? { cost, limit } : undefined;
      const resolved = await sessions.resolve(typeof token === "string" ? token : undefined, message, take);
      if (!("connection" in resolved)) return this.#refuse(exchange, answer, 503, requestId(message), resolved);
      connection = resolved.connection;
      taken = resolved.wait;
    }
    if (limit !== undefined) {
      const admitted = taken ?? this.#admit(exchange, connection, origin, message);
      const wait = typeof admitted === "number" ? admitted : await admitted;
      if (wait > 0) return this.#refuse(exchange, answer, 429, requestId(message), rateLimited(wait));
    }
    const wantsStream = this.#wantsStream(exchange, message);
    const producer = wantsStream ? this.#resumableStream(exchange, message, connection, origin) : undefined;
    if (producer !== undefined) return this.#stream(exchange, message, answer, { connection, origin }, producer);
    exchange.onAbort(() => abandonExchange(connection, message));
    if (wantsStream) return this.#stream(exchange, message, answer, { connection, origin });
    const reply = this.#core.handleMessage(message, { connection, channel: undefined, origin });
    const frame = typeof reply === "object" ? await reply : reply;
    const refusal = sessions.stateful ? await this.#settle(connection, message) : undefined;
    if (refusal !== undefined) {
      const status = refusal.code === ErrorCode.RateLimited ? 429 : 503;
      return this.#refuse(exchange, answer, status, requestId(message), refusal);
    }
    if (frame === undefined) return exchange.respond(204, answer.cors, "");
    exchange.respond(200, sessions.headers(connection, answer.json), frame);
  }

  /** The session's outcome after the reply: the error that replaces an `initialize` answer when the store refused the session. */
  async #settle(connection: Connection, message: unknown): Promise<ErrorObject | undefined> {
    const refusal = await this.#sessions.settle(connection, message);
    if (refusal !== undefined) connection.session.initialized = false;
    return refusal;
  }

  /**
   * The caller's bucket (§15.5): its authenticated identity, else its stateful session (a
   * token the store knows, so inventing tokens gets no new bucket), else its address.
   */
  #admit(
    exchange: HttpExchange,
    connection: Connection,
    origin: RequestOrigin,
    message: unknown,
  ): number | Promise<number> {
    const cost = requestCost(message);
    if (cost === 0) return 0;
    const subject = origin.auth?.subject;
    const { token, initialized } = connection.session;
    const key =
      subject !== undefined
        ? `auth:${subject}`
        : token !== undefined && initialized
          ? sessionBucket(token)
          : `address:${clientAddress(exchange.request, this.#trustedProxies)}`;
    return this.#core.admit(key, cost);
  }

  /**
   * SSE: frames flushed as they happen, then the response as the final frame (§5.2, §9). A
   * client that reads slowly gets its progress coalesced, never its response (../server/outbound-queue.ts).
   */
  async #stream(
    exchange: HttpExchange,
    message: unknown,
    answer: AnswerHeaders,
    { connection, origin }: { connection: Connection; origin: RequestOrigin },
    producer?: StreamProducer,
  ): Promise<void> {
    exchange.startStream(this.#sessions.headers(connection, answer.stream));
    if (producer !== undefined) {
      const keepAliveMs = this.#options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
      void this.#resumable!.serve(exchange, producer.stream, { after: 0, keepAliveMs, priming: true });
      return this.#produce(message, { connection, origin }, producer);
    }
    let silent = true;
    const core = this.#core;
    const queue = new OutboundQueue(
      { write: (text) => exchange.write(text), onDrain: (listener) => exchange.onDrain(listener) },
      { report: (line) => core.diagnose(line) },
    );
    exchange.onAbort(() => queue.abandon());
    const channel: FrameChannel = {
      send(frame) {
        silent = false;
        queue.response(sseFrame(frame));
      },
      sendNotification(owner, frame, progress) {
        silent = false;
        queue.notification(owner, sseFrame(frame), progress);
      },
      requestDone: (owner) => queue.requestDone(owner),
    };
    const keepAlive = setInterval(() => {
      if (silent) queue.whenIdle(SSE_KEEP_ALIVE);
      silent = true;
    }, this.#options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
    try {
      await this.#runStreamed(message, { connection, channel, origin });
    } finally {
      await queue.idle();
      clearInterval(keepAlive);
      exchange.end();
    }
  }

  /**
   * A resumable stream for a request that asked for one (docs/resumable-streams.md), or undefined:
   * not offered, not asked for, a method the schema does not mark resumable, or past a bound.
   */
  #resumableStream(
    exchange: HttpExchange,
    message: unknown,
    connection: Connection,
    origin: RequestOrigin,
  ): StreamProducer | undefined {
    const streams = this.#resumable;
    if (streams === undefined || exchange.request.headers[RESUMABLE_HEADER_LOWER] !== "1") return undefined;
    const method = (message as { method?: unknown }).method;
    if (typeof method !== "string" || this.#core.identity.protocol.methods[method]?.resumable !== true)
      return undefined;
    const id = requestId(message);
    const token = connection.session.token;
    const subject = origin.auth?.subject;
    const bucket =
      subject !== undefined
        ? `auth:${subject}`
        : token !== undefined
          ? sessionBucket(token)
          : `address:${clientAddress(exchange.request, this.#trustedProxies)}`;
    const producer = streams.start(streamOwner(subject, token), bucket, {
      cancel: () => connection.inFlight.get(id!)?.abort(CANCELLED),
      abandon: () => {
        connection.inFlight.get(id!)?.abandon();
        // A reconnect after the grace period gets this answer rather than a stream that never ends.
        producer?.append(errorFrame(id, GRACE_EXPIRED), true);
      },
    });
    return producer;
  }

  /** Runs the request, its frames going to its resumable stream; the connection that asked is its first reader. */
  async #produce(
    message: unknown,
    { connection, origin }: { connection: Connection; origin: RequestOrigin },
    producer: StreamProducer,
  ): Promise<void> {
    const channel: FrameChannel = {
      send: (frame) => producer.append(frame, true),
      sendNotification: (_owner, frame) => producer.append(frame, false),
    };
    await this.#runStreamed(message, { connection, channel, origin });
  }

  /** Runs a streamed request: its response, or the session's refusal, is its channel's final frame. */
  async #runStreamed(message: unknown, inbound: Inbound): Promise<void> {
    const { connection, channel } = inbound;
    try {
      const reply = this.#core.handleMessage(message, inbound);
      let frame = typeof reply === "object" ? await reply : reply;
      const refusal = this.#sessions.stateful ? await this.#settle(connection, message) : undefined;
      if (refusal !== undefined) frame = errorFrame(requestId(message), refusal);
      if (frame !== undefined) channel!.send(frame);
    } catch {
      // Never a second status line once streaming: the failure is the final frame.
      channel!.send(errorFrame(requestId(message), { code: ErrorCode.InternalError, message: "Internal error" }));
    }
  }

  /**
   * A resume (GET) or an explicit cancel (DELETE) of a resumable stream, named by the
   * `Last-Event-ID` header. Only the caller that started the stream may do either: anyone else,
   * like a stream that is unknown or has expired, gets 404 and -32015, and nothing of the stream.
   */
  async #resume(exchange: HttpExchange, answer: AnswerHeaders, cancel: boolean): Promise<void> {
    const streams = this.#resumable!;
    const auth = await this.#authenticate(exchange, answer);
    if (auth === false) return;
    const { headers } = exchange.request;
    const lastEventId = headerValue(headers["last-event-id"]);
    const at = parseEventId(lastEventId);
    if (at === undefined) {
      return exchange.respond(
        400,
        answer.json,
        errorFrame(null, {
          code: ErrorCode.InvalidRequest,
          message: "Invalid Request: Last-Event-ID must name an event of a resumable stream (<stream>:<number>)",
          data: { field: "Last-Event-ID" },
        }),
      );
    }
    const token = headers[SESSION_HEADER_LOWER];
    const owner = await streams.owner(at.stream);
    if (owner === undefined || owner !== streamOwner(auth?.subject, typeof token === "string" ? token : undefined)) {
      return exchange.respond(
        404,
        answer.json,
        errorFrame(null, {
          code: ErrorCode.NotFound,
          message: `Not found: no resumable stream ${at.stream} for this caller (unknown, expired, or another caller's)`,
          data: { field: "Last-Event-ID" },
        }),
      );
    }
    if (cancel) {
      await streams.cancel(at.stream);
      return exchange.respond(204, answer.cors, "");
    }
    exchange.startStream(answer.stream);
    await streams.serve(exchange, at.stream, {
      after: at.seq,
      keepAliveMs: this.#options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    });
  }

  #wantsStream(exchange: HttpExchange, message: unknown): boolean {
    if (!isRecord(message) || message.id === undefined) return false;
    const accept = exchange.request.headers.accept;
    return typeof accept === "string" && accept.includes("text/event-stream") && this.#core.streaming;
  }

  /** Whether `path` is this endpoint's: the base path or a method below it. */
  owns(path: string): boolean {
    return this.#methodFromPath(path) !== undefined;
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
  #shed(exchange: HttpExchange, answer: AnswerHeaders): void {
    const retryAfterSeconds = Math.ceil(RATE_LIMITED_RETRY_AFTER_MS / 1000);
    exchange.respond(
      429,
      { ...answer.json, "retry-after": String(retryAfterSeconds) },
      errorFrame(null, {
        code: ErrorCode.RateLimited,
        message: `Rate limited: ${this.#maxConcurrent} requests are in progress`,
        data: { retryable: true, retryAfterMs: RATE_LIMITED_RETRY_AFTER_MS },
      }),
    );
  }

  /** A request refused before it ran (rate limit, session store): nothing has been sent yet (§5.2). */
  #refuse(
    exchange: HttpExchange,
    answer: AnswerHeaders,
    status: number,
    id: string | number | null,
    error: ErrorObject,
  ): void {
    const retryAfterMs = (error.data as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 0;
    exchange.respond(
      status,
      { ...answer.json, "retry-after": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
      errorFrame(id, error),
    );
  }

  #fail(exchange: HttpExchange, answer: AnswerHeaders, status: number, code: number, message: string): void {
    exchange.respond(status, answer.json, errorFrame(null, { code, message }));
  }
}

const SESSION_HEADER_LOWER = SESSION_HEADER.toLowerCase();
const RESUMABLE_HEADER_LOWER = RESUMABLE_HEADER.toLowerCase();
/** The final answer of a resumable stream whose client did not come back within the grace period. */
const GRACE_EXPIRED: ErrorObject = {
  code: ErrorCode.Cancelled,
  message: "Cancelled: the client did not reconnect within the grace period",
};

/** Who may resume a stream: the identity the auth hook established and the session, both or neither. */
function streamOwner(subject: string | undefined, token: string | undefined): string {
  return JSON.stringify([subject ?? null, token ?? null]);
}

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

/** The rate-limit tokens a body costs: one per request with an id (notifications are free). */
function requestCost(message: unknown): number {
  if (Array.isArray(message)) return message.filter((member) => requestId(member) !== null).length;
  return requestId(message) === null ? 0 : 1;
}

function requestId(message: unknown): string | number | null {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** One header's value; a repeated header is joined, so it matches no allow-list entry (a repeated Host is refused first). */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(", ") : value;
}

function trimSlash(path: string): string {
  return path.endsWith("/") ? path.slice(0, -1) : path;
}
