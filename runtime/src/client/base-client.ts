/**
 * The client half of an RCP session, driven only by a ClientProtocol: the initialize
 * handshake and version check (§7.1), local capability gating before any I/O (§6, §14.4),
 * id correlation of concurrent calls (§4.7), progress and log routing by token (§9, §17.1),
 * timeouts and cancellation (§7.14, §13.1), and failing every pending call when the
 * transport dies (§13.1). Generated clients extend it with one typed method per RCP method.
 */
import type {
  CallNext,
  CallOptions,
  ClientCall,
  JsonObject,
  MethodMap,
  RequestId,
  StreamEvent,
} from "../protocol/types.js";
import type { BaseClientOptions } from "./client-options.js";
import { composeInterceptors } from "../protocol/interceptor-chain.js";
import { retryStep, type RetryHost } from "./retry.js";
import type { ClientProtocol } from "../protocol/descriptor.js";
import { getPath } from "../protocol/dotted-paths.js";
import { ErrorCode } from "../protocol/errors.js";
import { callError, errorFromWire, withRetryability } from "./call-error.js";
import { progressStream } from "./event-stream.js";
import { handshake, type ClientSession } from "./handshake.js";
import { routeNotification } from "./notification-router.js";
import { followCursors } from "./pages.js";
import { PendingCall, type AbandonReason } from "./pending-call.js";
import { firstProblem, Tolerance, type ToleratedDeviation } from "./tolerance.js";
import { TransportError, type ClientTransport, type OutgoingFrame } from "./transport.js";

export type { BaseClientOptions };

type Method<M> = keyof M & string;

export class BaseClient<M extends MethodMap> {
  /** Type-only (nothing at run time): the method map, so helpers can infer it from a client type. */
  declare readonly "~methods"?: M;
  readonly #protocol: ClientProtocol;
  readonly #transport: ClientTransport;
  readonly #options: BaseClientOptions;
  readonly #pending = new Map<RequestId, PendingCall>();
  readonly #byToken = new Map<string, PendingCall>();
  #nextId = 1;
  #started: Promise<void> | undefined;
  /** The transport has started: calls no longer wait for it. */
  #ready = false;
  #connecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #session: ClientSession | undefined;
  readonly #chain: CallNext<ClientCall>;
  readonly #tolerance: Tolerance;
  /** Set once the client is closed or the transport died; every later call fails with it. */
  #failure: Error | undefined;

  constructor(options: BaseClientOptions) {
    this.#options = options;
    this.#protocol = options.protocol;
    this.#transport = options.transport;
    this.#tolerance = new Tolerance(options.strict ?? false, options.onDiagnostic);
    const send: CallNext<ClientCall> = (call) => this.#send(call);
    const retry = options.retry === true ? {} : options.retry || undefined;
    const host: RetryHost = {
      defaultTimeout: options.defaultTimeout,
      connected: () => this.#failure === undefined,
      cancelled: (reason) => this.#cancelledError(reason),
    };
    this.#chain = composeInterceptors(options.interceptors ?? [], retry ? retryStep(retry, host, send) : send);
  }

  /** What the client tolerated from the server so far: one entry per kind, method and capability. */
  get tolerated(): readonly ToleratedDeviation[] {
    return this.#tolerance.record;
  }

  /** The server's name and version from `initialize`; undefined before it. */
  get serverInfo(): Readonly<{ name: string; version: string }> | undefined {
    return this.#session?.serverInfo;
  }

  /** What the server advertised in `initialize`, malformed capabilities set aside; undefined before it. */
  get serverCapabilities(): Readonly<JsonObject> | undefined {
    return this.#session?.serverCapabilities;
  }

  /** The protocol version the server answered; undefined before `initialize`. */
  get protocolVersion(): number | undefined {
    return this.#session?.protocolVersion;
  }

  /** The level the server declared in `_meta.conformance` (§14). */
  get conformance(): string | undefined {
    return this.#session?.conformance;
  }

  /** Sends `initialize`, checks the negotiated version and caches the server's capabilities. */
  connect(): Promise<void> {
    // A failed initialize may be retried (§13); a successful one is never repeated.
    this.#connecting ??= this.#initialize().catch((error: unknown) => {
      this.#connecting = undefined;
      throw error;
    });
    return this.#connecting;
  }

  /**
   * Whether the server advertised `path` (a capability key or a dotted path into one):
   * present and not `false` (§6).
   */
  supports(path: string): boolean {
    const value = getPath(this.#session?.serverCapabilities, path);
    return value !== undefined && value !== null && value !== false;
  }

  /**
   * Calls `method`. Rejects with a CallError: -32004 for a method the protocol does not
   * define, -32001 before connect(), -32003 for an unadvertised one (all before any I/O),
   * the server's error, -32014 on a local timeout, -32006 when `signal` aborts; or with a
   * TransportError when the connection is gone.
   */
  call<K extends Method<M>>(
    method: K,
    params: M[K]["params"],
    options: CallOptions<M[K]["partial"]> = {},
  ): Promise<M[K]["result"]> {
    // Not async: returning #request's promise from an async function would add two ticks to every answer.
    try {
      this.#checkCallable(method);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what was thrown, unchanged
      return Promise.reject(error);
    }
    return this.#request(method, params as JsonObject | undefined, options);
  }

  /** Calls `method` asking for progress: progress events, then exactly one result. */
  stream<K extends Method<M>>(
    method: K,
    params: M[K]["params"],
    options: Omit<CallOptions<M[K]["partial"]>, "onProgress"> = {},
  ): AsyncGenerator<StreamEvent<M[K]["result"], M[K]["partial"]>, void, undefined> {
    return progressStream<M[K]["result"], M[K]["partial"]>((onProgress, stopped) => {
      const signal = options.signal === undefined ? stopped : AbortSignal.any([options.signal, stopped]);
      return this.call(method, params, { ...options, onProgress, signal });
    });
  }

  /**
   * Calls a paginated `method` (§10) page after page with the same `options`, following the
   * cursor each result carries until one carries none; generated clients call it `<name>Pages()`.
   */
  pages<K extends Method<M>>(
    method: K,
    params: M[K]["params"],
    options: CallOptions<M[K]["partial"]> = {},
  ): AsyncGenerator<M[K]["result"], void, undefined> {
    const pagination = this.#protocol.methods[method]?.pagination;
    if (pagination === undefined) throw new TypeError(`${method} does not declare pagination`);
    const repeated = (cursor: string) =>
      callError(this.#protocol, ErrorCode.InternalError, `${method} returned a cursor it had returned before`, {
        cursor,
        detail: "stopped instead of paging forever",
      });
    return followCursors(
      (page) => this.call(method, page as M[K]["params"], options),
      params as JsonObject,
      pagination,
      repeated,
    );
  }

  /** Sends a client notification (never answered, §4.5). */
  async notify(method: string, params: JsonObject = {}): Promise<void> {
    const descriptor = this.#protocol.notifications[method];
    if (descriptor === undefined || descriptor.direction === "server") {
      throw callError(this.#protocol, ErrorCode.UnknownMethod, `Unknown client notification: ${method}`, {
        method,
      });
    }
    if (this.#failure !== undefined) throw this.#failure;
    await this.#ensureStarted();
    await this.#transport.send({ jsonrpc: "2.0", method, params });
  }

  /** Fails every pending call and ends the transport (stdio: EOF, then the child is reaped). */
  close(): Promise<void> {
    if (this.#closing === undefined) {
      const wasOpen = this.#failure === undefined;
      this.#fail(new TransportError("Client closed"));
      this.#closing = wasOpen && this.#started !== undefined ? this.#transport.close() : Promise.resolve();
    }
    return this.#closing;
  }

  async #initialize(): Promise<void> {
    this.#session = await handshake({
      protocol: this.#protocol,
      // The handshake screens its answers itself, capability by capability.
      request: (method, params) => this.#request(method, params, {}, false),
      close: () => this.close(),
      clientInfo: this.#options.clientInfo,
      capabilities: this.#options.capabilities ?? {},
      minProtocolVersion: this.#options.minProtocolVersion ?? 1,
      // Request-scoped transports cancel by ending the request's own exchange (HTTP, §5.2).
      requestScoped: this.#transport.cancellation === "abort",
      tolerance: this.#tolerance,
    });
  }

  /** The local checks of §7 and §14.4, in the server's order of precedence (§12). */
  #checkCallable(method: string): void {
    const descriptor = this.#protocol.methods[method];
    const fail = (code: number, message: string, data: JsonObject): never => {
      throw callError(this.#protocol, code, message, data);
    };
    if (descriptor === undefined) return fail(ErrorCode.UnknownMethod, `Unknown method: ${method}`, { method });
    if (descriptor.beforeInitialize) return;
    if (this.#session === undefined) {
      return fail(ErrorCode.NotInitialized, `${method} needs connect() first`, { method });
    }
    for (const capability of [descriptor.capability, descriptor.requires]) {
      if (capability && !this.supports(capability)) {
        fail(ErrorCode.CapabilityMissing, `The server did not advertise ${capability}`, { method, capability });
      }
    }
  }

  /** One logical call: through the interceptors to the wire, then its result screened against the schema. */
  async #request(
    method: string,
    params: JsonObject | undefined,
    options: CallOptions,
    validateResult = true,
  ): Promise<unknown> {
    const { signal, meta, headers, onProgress, ...rest } = options;
    const call: ClientCall = {
      side: "client",
      method,
      descriptor: this.#protocol.methods[method]!,
      params,
      meta: { ...(params?._meta as JsonObject | undefined), ...meta },
      signal,
      headers: headers ?? {},
      onProgress,
      options: rest,
    };
    const result = await this.#chain(call);
    return validateResult ? this.#screenResult(method, result) : result;
  }

  /**
   * The innermost step of the chain: one request on the wire, answered by its id. Once the
   * transport has started, nothing is awaited: the request leaves in this turn, ahead of whatever
   * else is queued (a federator's requests to its other engines, each with its own checks to run
   * first), and the answer is the call's own promise, not one wrapped in an async function's.
   */
  #send(call: ClientCall): Promise<unknown> {
    // close() or the transport's death may happen while starting, and so may an abort: the
    // checks in #write run after it.
    if (!this.#ready) return this.#ensureStarted().then(() => this.#write(call));
    try {
      return this.#write(call);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what was thrown, unchanged
      return Promise.reject(error);
    }
  }

  #write(call: ClientCall): Promise<unknown> {
    const { signal, options } = call;
    if (this.#failure !== undefined) throw this.#failure;
    // The abort listener only hears later aborts, and nothing is sent yet.
    if (signal?.aborted) throw this.#cancelledError(signal.reason);
    const id = this.#nextId++;
    const wantsLogs = options.onLog !== undefined;
    // Progress is what resets the clock, so resetTimeoutOnProgress asks for it too (§9).
    const wantsProgress = call.onProgress !== undefined || options.resetTimeoutOnProgress === true;
    const progressToken = wantsProgress || wantsLogs ? `rcp-${id}` : undefined;
    const meta: JsonObject = { ...call.meta };
    if (progressToken !== undefined) meta.progressToken = progressToken;
    const logLevel = wantsLogs ? this.#logLevel(options.logLevel) : undefined;
    if (logLevel !== undefined) meta.logLevel = logLevel;
    const pending = new PendingCall({
      id,
      method: call.method,
      progressToken,
      signal,
      timeoutMs: options.timeout ?? this.#options.defaultTimeout,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? false,
      maxTotalTimeoutMs: options.maxTotalTimeout,
      // eslint-disable-next-line @typescript-eslint/unbound-method -- onProgress is a function the caller gave, always called unbound
      onProgress: call.onProgress,
      onLog: options.onLog,
      onAbandon: (abandoned, reason) => this.#abandon(abandoned, reason),
      onSettled: (settled) => this.#forget(settled),
    });
    this.#pending.set(id, pending);
    if (progressToken !== undefined) this.#byToken.set(progressToken, pending);
    const frame: OutgoingFrame = {
      jsonrpc: "2.0",
      id,
      method: call.method,
      params: withMeta(call.params as JsonObject | undefined, meta),
    };
    // Only a request-scoped transport is cancelled through a signal; a connection (stdio) never
    // reads it, and in Node 20 each AbortSignal made costs microseconds.
    const ending = this.#transport.cancellation === "abort" ? pending.exchange.signal : undefined;
    const sent = { signal: ending, stream: pending.wantsStream, headers: call.headers };
    this.#transport.send(frame, sent).then(
      () => {},
      (error: unknown) => pending.reject(withRetryability(this.#protocol, error)),
    );
    // Only now: the request has left (a transport writes before its first await).
    pending.watch();
    return pending.promise;
  }

  /** The requested level, or the least severe one so that every log is wanted (§17.1). */
  #logLevel(requested: string | undefined): string | undefined {
    const levels = this.#protocol.logLevels;
    if (requested === undefined) return levels[0];
    if (levels.includes(requested)) return requested;
    throw callError(this.#protocol, ErrorCode.InvalidParams, `Unknown log level: ${requested}`, {
      field: "_meta.logLevel",
    });
  }

  #ensureStarted(): Promise<void> {
    this.#started ??= this.#transport
      .start({
        receive: (frame, exchange) => this.#receive(frame, exchange),
        closed: (error) => this.#fail(error),
      })
      .then(() => {
        this.#ready = true;
      });
    return this.#started;
  }

  #receive(frame: unknown, exchange: RequestId | undefined): void {
    if (Array.isArray(frame)) {
      for (const member of frame) this.#receive(member, exchange);
      return;
    }
    if (typeof frame !== "object" || frame === null) return;
    const message = frame as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    if (typeof message.method === "string") {
      // RCP/1 defines no server-to-client requests, so only notifications are routed.
      if (message.id === undefined) {
        routeNotification(
          this.#protocol,
          message.method,
          message.params,
          {
            byToken: (token) => this.#byToken.get(token),
            byExchange: () => (exchange === undefined ? undefined : this.#pending.get(exchange)),
          },
          this.#tolerance,
        );
      }
      return;
    }
    if (typeof message.id !== "string" && typeof message.id !== "number") return;
    // Unknown ids, repeats and late answers after a local timeout are discarded here (§13.1).
    const call = this.#pending.get(message.id);
    if (call === undefined) return;
    if ("error" in message) call.reject(errorFromWire(this.#protocol, message.error));
    else if ("result" in message) call.resolve(message.result);
  }

  /** A result that breaks the method's schema is delivered as received and reported, or refused when strict. */
  #screenResult(method: string, result: unknown): unknown {
    const descriptor = this.#protocol.methods[method];
    if (descriptor === undefined || descriptor.result(result)) return result;
    const problem = firstProblem(descriptor.result, "result");
    if (this.#tolerance.strict) {
      throw callError(this.#protocol, ErrorCode.InternalError, `Malformed ${method} result`, { problem });
    }
    this.#tolerance.report({
      kind: "result",
      method,
      problem,
      message: `${method}: the result breaks the schema (${problem}); delivered as received`,
    });
    return result;
  }

  #abandon(call: PendingCall, reason: AbandonReason): void {
    if (reason.kind === "timeout") {
      call.reject(
        callError(this.#protocol, ErrorCode.Timeout, `${call.method} timed out after ${reason.afterMs} ms`, {
          timeoutMs: reason.afterMs,
        }),
      );
    } else if (reason.kind === "aborted") {
      call.reject(this.#cancelledError(reason.reason));
    } else {
      call.reject(reason.error);
    }
    this.#cancelOnWire(call, reason.kind === "timeout" ? "timeout" : "cancelled by the client");
  }

  /** §7.14: a cancel notification on a connection, or ending the request's own exchange. */
  #cancelOnWire(call: PendingCall, reason: string): void {
    if (this.#transport.cancellation === "abort") {
      call.exchange.abort(new Error(reason));
      return;
    }
    const cancel = Object.values(this.#protocol.notifications).find((n) => n.role === "cancel");
    if (cancel === undefined || this.#failure !== undefined) return;
    // Best effort: if the connection is gone, pending calls are failed by its death.
    this.#transport.send({ jsonrpc: "2.0", method: cancel.method, params: { id: call.id, reason } }).catch(() => {});
  }

  #cancelledError(reason: unknown): Error {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an abort reason can be anything (JSON.stringify would throw on a cycle); String() never throws
    const detail = reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason);
    return callError(this.#protocol, ErrorCode.Cancelled, "Cancelled by the client", detail ? { detail } : undefined);
  }

  #forget(call: PendingCall): void {
    this.#pending.delete(call.id);
    if (call.progressToken !== undefined) this.#byToken.delete(call.progressToken);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    // A request-scoped transport's close() leaves the exchanges it was given a signal for to us.
    const endExchanges = this.#transport.cancellation === "abort";
    for (const call of [...this.#pending.values()]) {
      call.reject(error);
      if (endExchanges) call.exchange.abort(error);
    }
  }
}

function withMeta(params: JsonObject | undefined, meta: JsonObject): JsonObject {
  const copy: JsonObject = { ...params };
  if (Object.keys(meta).length > 0) copy._meta = meta;
  else delete copy._meta;
  return copy;
}
