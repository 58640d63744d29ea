/**
 * The types generated code and user code share with the runtime: handlers and their
 * context, server options, client call options and the method map that types a client.
 */
import type { HttpOptions } from "../http/options.js";
import type { CallDescriptor, MethodDescriptor } from "./descriptor.js";
import type { AuthInfo, TransportInfo } from "./request-origin.js";
import type { RateLimit, ServerState } from "../state/types.js";

export type { AuthInfo, TransportInfo } from "./request-origin.js";

/** A JSON-RPC request id: a string or a number (§4.2). */
export type RequestId = string | number;

/** A JSON object of any members: params, results, capabilities, `_meta`. */
export type JsonObject = { [key: string]: unknown };

/** One progress event a handler reports; becomes a `notifications/progress` frame (§9). */
export interface ProgressEvent<Partial = unknown> {
  /** Completion in 0..1; the runtime keeps reported values non-decreasing. */
  progress: number;
  stage?: string;
  message?: string;
  partial?: Partial;
}

/** A progress event as a client receives it (§9). */
export interface ReceivedProgress<Partial = unknown> extends ProgressEvent<Partial> {
  /**
   * Present instead of `partial` when the server's partial broke the method's schema: the
   * value as received, untyped. The client reports it through `onDiagnostic`.
   */
  malformedPartial?: unknown;
}

/** What the session negotiated, as a handler sees it. */
export interface SessionView {
  readonly protocolVersion: number;
  readonly serverCapabilities: Readonly<JsonObject>;
  readonly clientCapabilities: Readonly<JsonObject>;
  /** Who the client said it is in `initialize`; undefined when it said nothing (stateless HTTP has no initialize). */
  readonly client?: Readonly<{ name: string; version: string }> | undefined;
}

/** The per-request context handed to every handler. */
export interface HandlerContext<Partial = unknown> {
  readonly id: RequestId;
  readonly method: string;
  /** The request's `_meta` (never undefined; `{}` when absent). */
  readonly meta: Readonly<JsonObject>;
  /** Aborts on cancel, deadline, client disconnect and shutdown. */
  readonly signal: AbortSignal;
  /** What the session negotiated; `session.client` is the clientInfo the client gave in `initialize`. */
  readonly session: SessionView;
  /** Option paths the runtime dropped because they were unsupported and `strict` was false (§7.7). */
  readonly degraded: readonly string[];
  /**
   * Who is calling: what `http.authenticate` returned (an object; `true` leaves it undefined),
   * or serveStdio's `auth`. Undefined when nothing said (§15.3: authorise writes apart from reads).
   */
  readonly auth: AuthInfo | undefined;
  /** The transport the request arrived on; over HTTP, with its request headers. */
  readonly transport: TransportInfo;
  /** Silent unless the request carried `_meta.progressToken` and `streaming` is advertised. */
  progress(event: ProgressEvent<Partial>): void;
  /** Silent unless `log` is advertised and `level` is at or above the requested level (§17.1). */
  log(level: string, data: unknown, logger?: string): void;
  /** Sends any notification tied to this request; silent when the request has no stream. */
  notify(method: string, params?: JsonObject): void;
}

/** A handler returns a value, a promise, or is a generator that yields progress and returns the result. */
export type HandlerOutcome<Result, Partial> =
  | Result
  | Promise<Result>
  | AsyncGenerator<ProgressEvent<Partial>, Result, void>
  | Generator<ProgressEvent<Partial>, Result, void>;

/** A method's handler: takes the validated params and the request's context; returns the result, a promise of it, or a generator that yields progress and returns it. */
export type Handler<Params, Result, Partial = never> = (
  params: Params,
  ctx: HandlerContext<Partial>,
) => HandlerOutcome<Result, Partial>;

/** The conformance levels of §14, declared in `_meta.conformance`. */
export type ConformanceLevel = "L0" | "L1" | "L2";

/** The server's limits on what a client may send; every one has a default (`DEFAULT_LIMITS`) and SECURITY.md explains them. */
export interface ServerLimits {
  /** Largest accepted line (stdio) or body (HTTP), in bytes; larger is -32013 (§15.5). */
  maxMessageBytes: number;
  /** Largest accepted batch; larger is -32013 (§11). */
  maxBatchSize: number;
  /** Requests in flight per connection before shedding with -32011 (§4.7). */
  maxInFlight: number;
  /** Deadline applied when a request carries no `_meta.deadlineMs` (§13.1). */
  defaultDeadlineMs: number;
  /** Nodes a request's filter tree may have (clauses and combinators); more is -32602 naming the filter (§15.5). */
  maxFilterClauses: number;
}

/** The options every server takes, typed or not: the generated `createServer` and `createServerRuntime`. */
export interface ServerOptionsBase<Capabilities> {
  /** The server's name and version, sent in the `initialize` and `info` results (§7.1). */
  info: { name: string; version: string };
  /** What the server advertises (§6); frozen when the server is created (§13.2). */
  capabilities: Capabilities;
  /** The level the server really reaches, declared in `_meta.conformance` (§14). */
  conformance: ConformanceLevel;
  /** Validate handler results (default true); a malformed result is -32603. */
  validateResults?: boolean;
  /** Message, batch, in-flight and deadline limits; each one left out keeps its `DEFAULT_LIMITS` value. */
  limits?: Partial<ServerLimits>;
  /** HTTP transport options (§5.2), used by `server.fetch` and `listen(server)`. */
  http?: HttpOptions;
  /**
   * Per-caller rate limit (§15.5): a token bucket per `ctx.auth.subject`, else per stateful
   * session, else per client address (HTTP; see `http.trustedProxies`), else per connection.
   * Each request costs one token (a batch one per member); past it the request is answered
   * -32011 with `retryAfterMs`, over HTTP 429 with `Retry-After` (§5.2). None by default.
   */
  rateLimit?: RateLimit;
  /**
   * Where sessions, cancels in flight and rate-limit buckets live. In memory by default;
   * `redisState` from `@rcp-gen/runtime/redis` shares them between replicas.
   */
  state?: ServerState;
  /** Where one-line diagnostics go (malformed results, unexpected exceptions). Default: console.error (stderr on Node). */
  diagnostics?: (line: string) => void;
  /**
   * Run around every handler call, after params validation, in the array's order (the first is
   * outermost). Methods the runtime answers itself (initialize, info, ping, shutdown) are not
   * intercepted. A throw becomes a JSON-RPC error like a handler's. None by default.
   */
  interceptors?: readonly Interceptor<ServerCall>[];
  /**
   * Sees every parsed message a client sends, as it arrived, before the server acts on it, with
   * the connection it came on (one object per stdio or in-memory connection, stateful HTTP
   * session or stateless HTTP exchange); a function it returns is called with the server's
   * answer (the frame's text, undefined for none). For tools that check clients, such as
   * rcp-gen mock. None by default.
   */
  observeInbound?: (
    message: unknown,
    connection: InboundConnection,
  ) => ((answer: string | undefined) => void) | undefined;
}

/** What `observeInbound` sees of a connection: its session's state as the message arrives. */
export interface InboundConnection {
  readonly session: {
    /** Whether a successful `initialize` was answered (always, for a stateless HTTP session). */
    readonly initialized: boolean;
    /** A stateless HTTP session, initialized implicitly: the handshake rules do not apply (§5.2). */
    readonly implicit: boolean;
  };
}

/** What an interceptor sees of any call, on either side: an interceptor typed with it runs on both. */
export interface RcpCall<Params = unknown, Partial = unknown> {
  readonly side: "client" | "server";
  /** Wire name, e.g. `retrieve`. */
  readonly method: string;
  /** What the schema says of the method: capability, streaming, idempotent, ... */
  readonly descriptor: CallDescriptor;
  /** The params as they travel (after validation on the server). */
  readonly params: Params;
  /** The request's `_meta` (`{}` when absent). On the client an interceptor may add members to send. */
  readonly meta: Readonly<JsonObject>;
  /**
   * Where the call's progress goes, outwards: on the server from the handler towards the wire,
   * on the client from the wire towards the caller. Pass `next` a call with a wrapping function
   * to observe progress; on the client, setting it asks the server for progress.
   */
  onProgress?(event: ProgressEvent<Partial>): void;
}

/** A handler call as a server interceptor sees it. */
export interface ServerCall<Params = unknown, Partial = unknown> extends RcpCall<Params, Partial> {
  readonly side: "server";
  /** The server's whole view of the method, params checks included. */
  readonly descriptor: MethodDescriptor;
  readonly id: RequestId;
  /**
   * The handler's context: `auth`, `transport`, `session`, `signal` (made on first use: an
   * AbortController per call would cost more than a no-op interceptor), `log`. Its `progress`
   * bypasses interceptors.
   */
  readonly ctx: HandlerContext<Partial>;
  onProgress(event: ProgressEvent<Partial>): void;
}

/** A call as a client interceptor sees it; every attempt, `initialize` included. */
export interface ClientCall<Params = unknown, Partial = unknown> extends RcpCall<Params, Partial> {
  readonly side: "client";
  /** The caller's signal: aborting it cancels the call. */
  readonly signal: AbortSignal | undefined;
  /** The caller's other options (timeouts, logs); signal, meta, headers and onProgress are the call's own. */
  readonly options: Readonly<Omit<CallOptions<Partial>, "signal" | "meta" | "headers" | "onProgress">>;
  /** HTTP request headers for this call alone (stdio and in-memory transports send none). */
  readonly headers: Readonly<Record<string, string>>;
  onProgress?(event: ReceivedProgress<Partial>): void;
}

/**
 * Runs a call: the next interceptor, and at the end the handler (server) or the transport
 * (client). Declared through a method, whose parameter TypeScript checks both ways, so that an
 * interceptor typed per method (ServerCallOf) fits where one for any call is expected.
 */
export type CallNext<Call> = {
  /** Passes the call on; resolves to its result. */
  next(call: Call): Promise<unknown>;
}["next"];

/**
 * Wraps every call: `(next) => async (call) => { ...; return next(call); }`, connect-es's shape.
 * It may pass `next` a changed call (`{ ...call, meta: { ...call.meta, traceId } }`), change the
 * result, or throw. `Interceptor<ServerCall>` and `Interceptor<ClientCall>` see that side's
 * members; a UniversalInterceptor runs on both.
 */
export type Interceptor<Call extends RcpCall> = (next: CallNext<Call>) => CallNext<Call>;

/** An interceptor for both sides: generic in the call it passes on, so it fits either side's array. */
export type UniversalInterceptor = <Call extends RcpCall>(next: CallNext<Call>) => CallNext<Call>;

/** The server calls of method map `M`, one member per method: `call.method` narrows `call.params`. */
export type ServerCallOf<M extends MethodMap> = {
  [K in keyof M & string]: ServerCall<M[K]["params"], M[K]["partial"]> & { readonly method: K };
}[keyof M & string];

/** The client calls of method map `M`, one member per method: `call.method` narrows `call.params`. */
export type ClientCallOf<M extends MethodMap> = {
  [K in keyof M & string]: ClientCall<M[K]["params"], M[K]["partial"]> & { readonly method: K };
}[keyof M & string];

/** How one method is typed on the client and server side. */
export interface MethodTypes {
  params: unknown;
  result: unknown;
  partial: unknown;
}

/** Wire name to the params, result and partial types of each method; generated code supplies one. */
export type MethodMap = { [method: string]: MethodTypes };

/** Options of one client call: cancellation, timeouts, progress and logs, extra `_meta`, HTTP headers. */
export interface CallOptions<Partial = unknown> {
  /** Aborting it cancels the call: `notifications/cancel` over stdio, an aborted request over HTTP. */
  signal?: AbortSignal;
  /** Milliseconds before the call fails locally with -32014 and a cancel is sent. */
  timeout?: number;
  /** Restart the `timeout` clock on every progress frame; asks for progress like `onProgress`. */
  resetTimeoutOnProgress?: boolean;
  /** Upper bound across resets, in milliseconds. */
  maxTotalTimeout?: number;
  /** Asks for progress (sets `_meta.progressToken`) and receives each event. */
  onProgress?: (event: ReceivedProgress<Partial>) => void;
  /** Asks for logs at `logLevel` (sets `_meta.logLevel`) and receives each one. */
  onLog?: (log: LogMessage) => void;
  /** The lowest severity `onLog` asks for (§17.1), e.g. `"info"`; every level when omitted. */
  logLevel?: string;
  /** Extra `_meta` keys for this request. */
  meta?: JsonObject;
  /** HTTP request headers for this call alone, beside the transport's own (stdio and in-memory send none). */
  headers?: Record<string, string>;
}

/** A `notifications/log` message as a client receives it (§17.1). */
export interface LogMessage {
  level: string;
  message?: string;
  logger?: string;
  data?: unknown;
}

/** What a streaming call yields: progress events, then exactly one result. */
export type StreamEvent<Result, Partial> =
  ({ type: "progress" } & ReceivedProgress<Partial>) | { type: "result"; result: Result };
