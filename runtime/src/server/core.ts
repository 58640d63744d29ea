/**
 * The transport-neutral server: one JSON-RPC message in, at most one response frame out
 * (§4, §11). Envelope checks are hand-written; everything method-specific comes from the
 * protocol descriptor. Transports (stdio, HTTP, memory) only move frames.
 */
import type { Handler, JsonObject, RequestId, ServerLimits, ServerOptionsBase } from "../protocol/types.js";
import type { MethodDescriptor, ProtocolDescriptor } from "../protocol/descriptor.js";
import { ErrorCode, RcpError, invalidParams, toErrorObject, type ErrorObject } from "../protocol/errors.js";
import { errorFrame, resultFrame } from "../protocol/serialize.js";
import { MalformedFrame, parseFrame } from "../framing/parse-frame.js";
import { firstIssueLine } from "../protocol/validation-issue.js";
import { getPath, isRecord } from "../protocol/dotted-paths.js";
import { dropNullMembers, prepareParams, validationError } from "./params.js";
import { DEFAULT_MAX_FILTER_CLAUSES } from "../filter/validate.js";
import { RequestContext, type FrameChannel, type RequestServices } from "./context.js";
import { Session, deepFreeze, type ServerIdentity } from "./session.js";
import { settleOutcome } from "./handler-outcome.js";
import { ServerInterceptors } from "./interceptors.js";
import { DeadlineSet } from "./deadline-set.js";
import type { Connection } from "./connection.js";
import type { RequestOrigin } from "../protocol/request-origin.js";
import type { HttpOptions } from "../http/options.js";
import type { RateLimit, RateLimiter, ServerState } from "../state/types.js";
import { MemoryRateLimiter } from "../state/memory.js";
import { RESUMABLE_CAPABILITY, resumableCapability } from "../resume/wire.js";

/** Any handler: generated code types each one precisely (generated/server.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any params and result: a table holds handlers of every method
export type AnyHandler = Handler<any, unknown, any>;

export interface ServerRuntimeOptions<Capabilities = JsonObject> extends ServerOptionsBase<Capabilities> {
  /** Wire name -> handler; the generated `createServer` types each one. */
  handlers: Readonly<Record<string, AnyHandler | undefined>>;
}

/** The limits a server applies unless its options say otherwise. */
export const DEFAULT_LIMITS: ServerLimits = {
  maxMessageBytes: 4 * 1024 * 1024,
  maxBatchSize: 100,
  maxInFlight: 1024,
  defaultDeadlineMs: 300_000,
  maxFilterClauses: DEFAULT_MAX_FILTER_CLAUSES,
};

/** A response frame, nothing (notifications), or either later. */
export type Reply = string | undefined | Promise<string | undefined>;

/** Where a message arrived: its connection, where its frames go, and who sent it how. */
export interface Inbound {
  readonly connection: Connection;
  /** Absent when the request has no stream (buffered HTTP). */
  readonly channel: FrameChannel | undefined;
  readonly origin: RequestOrigin;
}

/** §12.2 hint sent with -32011 when the in-flight cap sheds a request: long enough for a slot to free up. */
export const RATE_LIMITED_RETRY_AFTER_MS = 250;

/** Capability keys with a runtime meaning (§6): progress needs `streaming`, logs need `log`. */
const STREAMING = "streaming";
const LOG = "log";

export class ServerCore implements RequestServices {
  readonly identity: ServerIdentity;
  readonly limits: ServerLimits;
  readonly progressMethod: string;
  readonly logMethod: string;
  readonly http: HttpOptions;
  readonly state: ServerState;
  readonly rateLimit: RateLimit | undefined;
  readonly #rateLimiter: RateLimiter;
  /** When each outage (session store, cancel relay, rate limiter) was last reported. */
  readonly #outagesReported = new Map<string, number>();
  /** Rate-limit keys of connections without an identity (stdio, in-memory). */
  readonly #connectionKeys = new WeakMap<Connection, string>();
  readonly #protocol: ProtocolDescriptor;
  readonly #handlers: Readonly<Record<string, AnyHandler | undefined>>;
  readonly #validateResults: boolean;
  readonly #diagnostics: (line: string) => void;
  readonly #levelRanks = new Map<string, number>();
  readonly #streaming: boolean;
  readonly #logging: boolean;
  /** Undefined without interceptors: handlers are then called directly. */
  readonly #chain: ServerInterceptors | undefined;
  /** Requests in flight under the default deadline, on one timer. */
  readonly #defaultDeadlines: DeadlineSet<RequestContext> | undefined;
  readonly #observeInbound: ServerRuntimeOptions["observeInbound"];

  constructor(protocol: ProtocolDescriptor, options: ServerRuntimeOptions<unknown>) {
    this.#protocol = protocol;
    const capabilities = deepFreeze(advertised(options)) as Readonly<JsonObject>;
    this.identity = { protocol, info: options.info, capabilities, conformance: options.conformance };
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#handlers = options.handlers;
    refuseMissingHandlers(protocol, capabilities, options.handlers);
    this.#validateResults = options.validateResults ?? true;
    this.#observeInbound = options.observeInbound;
    // console.error is stderr on Node, Bun and Deno and the log of a worker: never a stdio server's stdout.
    this.#diagnostics = options.diagnostics ?? ((line) => console.error(line));
    this.http = options.http ?? {};
    this.state = options.state ?? {};
    this.rateLimit = options.rateLimit;
    this.#rateLimiter = this.state.rateLimiter ?? new MemoryRateLimiter();
    protocol.logLevels.forEach((level, rank) => this.#levelRanks.set(level, rank));
    this.#streaming = capabilities[STREAMING] !== undefined;
    this.#logging = capabilities[LOG] !== undefined;
    const roles = Object.values(protocol.notifications);
    this.progressMethod = roles.find((n) => n.role === "progress")?.method ?? `${protocol.notificationPrefix}progress`;
    this.logMethod = roles.find((n) => n.role === "log")?.method ?? `${protocol.notificationPrefix}log`;
    const serverDeadline = this.limits.defaultDeadlineMs;
    this.#defaultDeadlines =
      serverDeadline > 0 && Number.isFinite(serverDeadline) ? new DeadlineSet(serverDeadline) : undefined;
    const interceptors = options.interceptors ?? [];
    // Dispatch reaches the chain only after finding the method's handler.
    this.#chain =
      interceptors.length === 0 ? undefined : new ServerInterceptors(interceptors, (method) => this.#handlers[method]!);
  }

  newSession(implicit = false): Session {
    return new Session(this.identity, implicit);
  }

  /** One frame's text (a stdio line, a message in memory): parsed as HTTP bodies are (parseFrame), then handled. */
  handleText(text: string, inbound: Inbound): Reply {
    const message = parseFrame(text);
    if (message instanceof MalformedFrame) return errorFrame(null, message.error);
    return this.handleMessage(message, inbound);
  }

  handleMessage(message: unknown, inbound: Inbound): Reply {
    const answered = this.#observeInbound?.(message, inbound.connection);
    const reply = Array.isArray(message) ? this.#handleBatch(message, inbound) : this.#handleSingle(message, inbound);
    if (answered === undefined) return reply;
    if (typeof reply === "object") void reply.then(answered, () => answered(undefined));
    else answered(reply);
    return reply;
  }

  /** §11: one response per request member, none for notifications, -32600 for `[]`. */
  #handleBatch(batch: unknown[], inbound: Inbound): Reply {
    if (batch.length === 0)
      return errorFrame(null, { code: ErrorCode.InvalidRequest, message: "Invalid Request: empty batch" });
    if (batch.length > this.limits.maxBatchSize) {
      return errorFrame(null, {
        code: ErrorCode.PayloadTooLarge,
        message: `Payload too large: batch of ${batch.length} exceeds ${this.limits.maxBatchSize}`,
      });
    }
    const replies = batch.map((member) => this.#handleSingle(member, inbound));
    if (replies.every((reply) => typeof reply !== "object")) return joinBatch(replies);
    // eslint-disable-next-line @typescript-eslint/await-thenable -- replies mixes plain strings with promises of them
    return Promise.all(replies).then(joinBatch);
  }

  #handleSingle(message: unknown, inbound: Inbound): Reply {
    if (!isRecord(message)) return invalidRequest(null, "a request must be a JSON object");
    const rawId = message.id;
    const hasId = rawId !== undefined;
    // 1e400 parses as Infinity, and an integer beyond 2^53 - 1 is rounded by JSON.parse (two such
    // ids collide): neither could be echoed as sent (§4.7), so each is refused rather than run.
    const exactId =
      typeof rawId === "string" || (typeof rawId === "number" && Math.abs(rawId) <= Number.MAX_SAFE_INTEGER);
    if (hasId && !exactId) {
      return invalidRequest(null, "id must be a string or a number within ±(2^53 - 1) (§4.1)");
    }
    const id = hasId ? rawId : null;
    if (message.jsonrpc !== "2.0") return hasId ? invalidRequest(id, 'jsonrpc must be "2.0"') : undefined;
    const method = message.method;
    if (typeof method !== "string") return hasId ? invalidRequest(id, "method must be a string") : undefined;
    let params = message.params;
    if (params === undefined) params = {};
    else if (!isRecord(params)) {
      if (!hasId) return undefined;
      if (Array.isArray(params))
        return errorFrame(id, invalidParams("params", "params must be an object, not an array (§4.1)").toObject());
      return invalidRequest(id, "params must be an object (§4.1)");
    }
    if (!hasId) {
      this.#handleNotification(inbound.connection, method, params as Record<string, unknown>);
      return undefined;
    }
    // §13.1: nothing received after the shutdown response is processed, but it is still answered.
    if (inbound.connection.closing) return invalidRequest(id, "received after shutdown; not processed (§13.1)");
    // Over HTTP the endpoint has taken the tokens already, and answers 429 (./http/serve.ts).
    if (this.rateLimit !== undefined && inbound.origin.transport.kind !== "http") {
      const subject = inbound.origin.auth?.subject;
      const key = subject === undefined ? this.#connectionKey(inbound.connection) : `auth:${subject}`;
      const wait = this.admit(key, 1);
      const run = (waitMs: number): Reply =>
        waitMs > 0
          ? errorFrame(id, rateLimited(waitMs))
          : this.#handleRequest(id!, method, params as Record<string, unknown>, inbound);
      return typeof wait === "number" ? run(wait) : wait.then(run);
    }
    return this.#handleRequest(id!, method, params as Record<string, unknown>, inbound);
  }

  /**
   * Takes `cost` tokens from `key`'s bucket: 0, or the milliseconds to wait. An unreachable
   * limiter lets the request through (fail open): a shared store's outage must not stop the service.
   */
  admit(key: string, cost: number): number | Promise<number> {
    const limit = this.rateLimit;
    if (limit === undefined) return 0;
    const failOpen = (error: unknown): number => {
      this.reportOutage("rate limiter", error);
      return 0;
    };
    try {
      const wait = this.#rateLimiter.take(key, cost, limit);
      return typeof wait === "number" ? wait : wait.catch(failOpen);
    } catch (error) {
      return failOpen(error);
    }
  }

  /** One diagnostic line per shared-state part and per minute while it cannot be reached. */
  reportOutage(what: string, error: unknown): void {
    const now = Date.now();
    const last = this.#outagesReported.get(what);
    if (last !== undefined && now - last < OUTAGE_REPORT_INTERVAL_MS) return;
    this.#outagesReported.set(what, now);
    this.#diagnostics(`rcp: ${what} unreachable, ${OUTAGE_POLICY[what] ?? "going on"}: ${describeThrown(error)}`);
  }

  #connectionKey(connection: Connection): string {
    let key = this.#connectionKeys.get(connection);
    if (key === undefined) {
      key = `connection:${crypto.randomUUID()}`;
      this.#connectionKeys.set(connection, key);
    }
    return key;
  }

  /** Never answered (§4.5); cancel is the only client notification with a runtime meaning. */
  #handleNotification(connection: Connection, method: string, params: Record<string, unknown>): void {
    const descriptor = this.#protocol.notifications[method];
    if (descriptor?.role === "cancel") connection.cancel(params.id);
  }

  #handleRequest(id: RequestId, method: string, params: Record<string, unknown>, inbound: Inbound): Reply {
    const connection = inbound.connection;
    const descriptor = this.#protocol.methods[method];
    if (descriptor === undefined && this.#protocol.notifications[method] !== undefined) {
      return invalidRequest(id, `${method} is a notification and must be sent without an id`);
    }
    const session = connection.session;
    if (!session.initialized && !descriptor?.beforeInitialize) {
      return errorFrame(id, {
        code: ErrorCode.NotInitialized,
        message: `Not initialized: call initialize before ${method} (§13)`,
      });
    }
    if (descriptor === undefined) {
      return errorFrame(id, { code: ErrorCode.UnknownMethod, message: `Unknown method: ${method}` });
    }
    const capabilities = session.serverCapabilities;
    const missing =
      descriptor.capability !== null && capabilities[descriptor.capability] === undefined
        ? descriptor.capability
        : descriptor.requires !== undefined && !getPath(capabilities, descriptor.requires)
          ? descriptor.requires
          : undefined;
    if (missing !== undefined) {
      return errorFrame(id, {
        code: ErrorCode.CapabilityMissing,
        message: `Capability missing: ${missing} is not advertised`,
      });
    }
    let meta: JsonObject;
    let degraded: readonly string[];
    try {
      meta = this.#checkMeta(params._meta);
      degraded = prepareParams(descriptor, params, capabilities, { maxFilterClauses: this.limits.maxFilterClauses });
      if (descriptor.lifecycle !== undefined) {
        const result = session.answer(descriptor.lifecycle, params);
        if (descriptor.lifecycle === "shutdown") connection.closing = true;
        return resultFrame(id, result);
      }
    } catch (thrown) {
      return errorFrame(id, this.reportThrown(method, thrown));
    }
    const handler = this.#handlers[method];
    if (handler === undefined) {
      this.#diagnostics(`rcp: no handler registered for advertised method ${method}`);
      return errorFrame(id, toErrorObject(undefined));
    }
    if (connection.inFlight.has(id)) return invalidRequest(id, "id is already in flight on this connection (§4.7)");
    if (connection.inFlight.size >= this.limits.maxInFlight) {
      return errorFrame(id, {
        code: ErrorCode.RateLimited,
        message: "Rate limited: too many requests in flight",
        data: { retryable: true, retryAfterMs: RATE_LIMITED_RETRY_AFTER_MS },
      });
    }
    const context = new RequestContext(this, {
      descriptor,
      id,
      meta,
      session,
      inFlight: connection.inFlight,
      channel: inbound.channel,
      degraded,
      origin: inbound.origin,
    });
    return this.#invoke(connection, context, handler, params);
  }

  /** The handler's outcome, directly or through the interceptors: answered now when known at once (./handler-outcome.ts). */
  #invoke(
    connection: Connection,
    context: RequestContext,
    handler: AnyHandler,
    params: Record<string, unknown>,
  ): Reply {
    let outcome: unknown;
    if (this.#chain !== undefined) outcome = this.#chain.call(context, params);
    else {
      try {
        outcome = settleOutcome(handler(params, context), context);
      } catch (thrown) {
        return context.answeredNow(errorFrame(context.id, this.reportThrown(context.method, thrown)));
      }
    }
    if (!(outcome instanceof Promise)) return context.answeredNow(context.resultFrame(outcome));
    const reply = this.#pending(connection, context);
    outcome.then(
      (result) => context.complete(result),
      (thrown) => context.fail(thrown),
    );
    return reply;
  }

  /** In flight until answered, within the request's deadline or the server's (§13.1). */
  #pending(connection: Connection, context: RequestContext): Promise<string | undefined> {
    connection.inFlight.set(context.id, context);
    const deadline = context.meta.deadlineMs;
    const serverDeadline = this.limits.defaultDeadlineMs;
    return context.pending(
      typeof deadline === "number" && deadline > 0 ? Math.min(deadline, serverDeadline) : serverDeadline,
      this.#defaultDeadlines,
    );
  }

  #checkMeta(meta: unknown): JsonObject {
    // §4.6: a null where the schema lists none is absent.
    if (meta === undefined || meta === null) return EMPTY_META;
    if (!isRecord(meta)) throw invalidParams("_meta", "_meta must be an object (§4.4)");
    if (!this.#protocol.meta(meta) && !(dropNullMembers(meta) && this.#protocol.meta(meta)))
      throw validationError(this.#protocol.meta, "_meta");
    const level = meta.logLevel;
    if (level !== undefined && (typeof level !== "string" || !this.#levelRanks.has(level))) {
      throw invalidParams("_meta.logLevel", `must be one of ${this.#protocol.logLevels.join(", ")}`);
    }
    return meta;
  }

  /** Progress needs the server to advertise `streaming` (§9); so does an SSE response (§5.2). */
  get streaming(): boolean {
    return this.#streaming;
  }

  lifecycleRole(method: string): string | undefined {
    return this.#protocol.methods[method]?.lifecycle;
  }

  /** The rank below which logs are dropped; infinite (silent) unless a level was asked for (§17.1). */
  logThreshold(session: Session, meta: Readonly<JsonObject>): number {
    if (!this.#logging) return Number.POSITIVE_INFINITY;
    const level = (meta.logLevel as string | undefined) ?? session.logLevel;
    return level === undefined ? Number.POSITIVE_INFINITY : this.levelRank(level);
  }

  levelRank(level: string): number {
    return this.#levelRanks.get(level) ?? -1;
  }

  /** -32603 when results are validated and this one is malformed; one stderr line says why. */
  resultProblem(descriptor: MethodDescriptor, result: unknown): ErrorObject | undefined {
    if (!this.#validateResults || descriptor.result(result)) return undefined;
    this.#diagnostics(
      `rcp: ${descriptor.method} handler returned a malformed result: ${firstIssueLine(descriptor.result, "result")}`,
    );
    return toErrorObject(undefined);
  }

  acceptsPartial(descriptor: MethodDescriptor, partial: unknown): boolean {
    if (!this.#validateResults || descriptor.partial === undefined || descriptor.partial(partial)) return true;
    this.#diagnostics(
      `rcp: ${descriptor.method} progress carried a malformed partial (${firstIssueLine(descriptor.partial, "partial")}); it was dropped`,
    );
    return false;
  }

  /** One line to the diagnostics callback (stderr by default), e.g. what a slow reader cost. */
  diagnose(line: string): void {
    this.#diagnostics(line);
  }

  /** The wire error for anything thrown; unexpected exceptions are logged, never sent (§12). */
  reportThrown(method: string, thrown: unknown): ErrorObject {
    if (!(thrown instanceof RcpError)) {
      this.#diagnostics(`rcp: ${method} failed: ${describeThrown(thrown)}`);
    }
    return toErrorObject(thrown);
  }
}

/** One line about a thrown value; never throws itself (a null-prototype object has no toString). */
function describeThrown(thrown: unknown): string {
  try {
    return thrown instanceof Error ? (thrown.stack ?? thrown.message).split("\n", 2).join(" ") : String(thrown);
  } catch {
    return Object.prototype.toString.call(thrown);
  }
}

const OUTAGE_REPORT_INTERVAL_MS = 60_000;
/** What the server does while each part is unreachable (docs/deployment.md). */
const OUTAGE_POLICY: Readonly<Record<string, string>> = {
  "rate limiter": "requests are let through",
  "cancel relay": "cancels for other replicas are dropped",
  "session store": "known sessions go on here, others get -32010",
};

/** -32011 with the §12.2 hint of when to come back. */
export function rateLimited(retryAfterMs: number): ErrorObject {
  return {
    code: ErrorCode.RateLimited,
    message: "Rate limited: too many requests from this caller",
    data: { retryable: true, retryAfterMs },
  };
}

const EMPTY_META: JsonObject = Object.freeze({});

function invalidRequest(id: RequestId | null, detail: string): string {
  return errorFrame(id, { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${detail}` });
}

function joinBatch(replies: Array<string | undefined>): string | undefined {
  const frames = replies.filter((reply): reply is string => reply !== undefined);
  return frames.length === 0 ? undefined : `[${frames.join(",")}]`;
}

/**
 * An advertised method without a handler is refused when the server is built, not found at
 * its first call (a -32603 to the client): the handler types demand it, but a cast can hide it.
 */
function refuseMissingHandlers(
  protocol: ProtocolDescriptor,
  capabilities: Readonly<JsonObject>,
  handlers: Readonly<Record<string, AnyHandler | undefined>>,
): void {
  const missing = Object.values(protocol.methods).filter(
    (descriptor) =>
      descriptor.lifecycle === undefined &&
      (descriptor.capability === null || capabilities[descriptor.capability] !== undefined) &&
      (descriptor.requires === undefined || Boolean(getPath(capabilities, descriptor.requires))) &&
      typeof handlers[descriptor.method] !== "function",
  );
  if (missing.length === 0) return;
  const named = missing.map(
    (descriptor) =>
      `${descriptor.method} (advertised by ${descriptor.requires ?? descriptor.capability ?? "the protocol"})`,
  );
  throw new TypeError(
    `createServer: no handler for ${named.join(", ")}: give handlers[${JSON.stringify(missing[0]!.method)}], or stop advertising its capability`,
  );
}

/** The capabilities given, plus resumable streams' when the HTTP transport offers them over SSE (§6.2). */
function advertised(options: ServerRuntimeOptions<unknown>): JsonObject {
  const capabilities = structuredClone(options.capabilities) as JsonObject;
  const resumable = resumableCapability(options.http?.resumable);
  if (resumable !== undefined && capabilities[STREAMING] !== undefined)
    capabilities[RESUMABLE_CAPABILITY] = { ...resumable };
  return capabilities;
}
