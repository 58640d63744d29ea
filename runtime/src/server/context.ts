/**
 * One request in flight: the HandlerContext a handler sees, and the single place that
 * produces its response, so cancel, deadline, disconnect and the handler's own outcome
 * race to answer it exactly once (§7.14, §13.1).
 */
import type { HandlerContext, JsonObject, ProgressEvent, RequestId } from "../protocol/types.js";
import type { MethodDescriptor } from "../protocol/descriptor.js";
import type { Session } from "./session.js";
import type { InFlightRequest } from "./connection.js";
import type { AuthInfo, RequestOrigin, TransportInfo } from "../protocol/request-origin.js";
import { ErrorCode, RcpError, type ErrorObject } from "../protocol/errors.js";
import { errorFrame, notificationFrame, resultFrame } from "../protocol/serialize.js";
import type { DeadlineSet, Expiring } from "./deadline-set.js";

/** Where a request's frames go; absent when the request has no stream (buffered HTTP). */
export interface FrameChannel {
  /** A response or error frame: never dropped. */
  send(frame: string): void;
  /**
   * A notification of a request in flight (advisory, §9, §17.1): a channel to a slow reader
   * may coalesce progress and drop the rest (./outbound-queue.ts). Default: `send`.
   */
  sendNotification?(owner: RequestContext, frame: string, progress: boolean): void;
  /** `owner` was answered and sends nothing more. */
  requestDone?(owner: RequestContext): void;
}

/**
 * The server-wide rules a request follows (ServerCore implements them): a narrow view, so a
 * request holds no reference to the whole server and this module needs nothing of ./core.ts.
 */
export interface RequestServices {
  /** `streaming` is advertised, so progress may be sent (§9). */
  readonly streaming: boolean;
  readonly progressMethod: string;
  readonly logMethod: string;
  /** The rank below which this request's logs are dropped (§17.1). */
  logThreshold(session: Session, meta: Readonly<JsonObject>): number;
  levelRank(level: string): number;
  /** Whether a progress `partial` may be sent; a malformed one is reported and dropped. */
  acceptsPartial(descriptor: MethodDescriptor, partial: unknown): boolean;
  /** -32603 for a malformed result when results are validated. */
  resultProblem(descriptor: MethodDescriptor, result: unknown): ErrorObject | undefined;
  /** The wire error for anything thrown (and a diagnostics line for the unexpected). */
  reportThrown(method: string, thrown: unknown): ErrorObject;
}

/** What a request context is made from: plain data of the request and of its connection. */
export interface RequestContextInit {
  readonly descriptor: MethodDescriptor;
  readonly id: RequestId;
  readonly meta: Readonly<JsonObject>;
  /** The session of the connection it arrived on. */
  readonly session: Session;
  /** The in-flight table of that connection, which the request leaves once answered. */
  readonly inFlight: Map<RequestId, InFlightRequest>;
  readonly channel: FrameChannel | undefined;
  readonly degraded: readonly string[];
  readonly origin: RequestOrigin;
}

export class RequestContext implements HandlerContext, InFlightRequest, Expiring {
  readonly descriptor: MethodDescriptor;
  readonly id: RequestId;
  readonly meta: Readonly<JsonObject>;
  readonly session: Session;
  readonly channel: FrameChannel | undefined;
  readonly degraded: readonly string[];
  readonly #services: RequestServices;
  readonly #inFlight: Map<RequestId, InFlightRequest>;
  readonly #origin: RequestOrigin;
  #controller: AbortController | undefined;
  #resolve: ((frame: string | undefined) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Set when the deadline is the server's default, shared with the other requests under it. */
  #deadlines: DeadlineSet<RequestContext> | undefined;
  #expiresAt = Number.POSITIVE_INFINITY;
  #lastProgress = 0;
  #logThreshold: number;
  #progressToken: string | number | undefined;
  #done = false;

  constructor(services: RequestServices, init: RequestContextInit) {
    const { descriptor, meta, channel } = init;
    this.descriptor = descriptor;
    this.id = init.id;
    this.meta = meta;
    this.session = init.session;
    this.channel = channel;
    this.degraded = init.degraded;
    this.#services = services;
    this.#inFlight = init.inFlight;
    this.#origin = init.origin;
    const token = meta.progressToken;
    this.#progressToken =
      channel && descriptor.streaming && services.streaming && (typeof token === "string" || typeof token === "number")
        ? token
        : undefined;
    this.#logThreshold = channel ? services.logThreshold(this.session, meta) : Number.POSITIVE_INFINITY;
  }

  get method(): string {
    return this.descriptor.method;
  }

  get auth(): AuthInfo | undefined {
    return this.#origin.auth;
  }

  get transport(): TransportInfo {
    return this.#origin.transport;
  }

  /** Created on first use: most handlers never look at it. */
  get signal(): AbortSignal {
    return (this.#controller ??= new AbortController()).signal;
  }

  get done(): boolean {
    return this.#done;
  }

  progress(event: ProgressEvent): void {
    if (this.#progressToken === undefined || this.#done) return;
    const reported = Number(event.progress);
    const clamped = Number.isNaN(reported) ? this.#lastProgress : Math.min(1, Math.max(0, reported));
    // Progress never goes backwards, whatever the handler reports (§9).
    this.#lastProgress = Math.max(this.#lastProgress, clamped);
    const params: JsonObject = { progressToken: this.#progressToken, progress: this.#lastProgress };
    if (event.stage !== undefined) params.stage = event.stage;
    if (event.message !== undefined) params.message = event.message;
    if (event.partial !== undefined && this.#services.acceptsPartial(this.descriptor, event.partial))
      params.partial = event.partial;
    this.#notify(notificationFrame(this.#services.progressMethod, params), true);
  }

  log(level: string, data: unknown, logger?: string): void {
    if (this.#done || this.#services.levelRank(level) < this.#logThreshold) return;
    const params: JsonObject = { level };
    if (typeof data === "string") params.message = data;
    else if (data !== undefined) params.data = data;
    if (logger !== undefined) params.logger = logger;
    if (this.meta.progressToken !== undefined) params._meta = { progressToken: this.meta.progressToken };
    this.#notify(notificationFrame(this.#services.logMethod, params), false);
  }

  notify(method: string, params?: JsonObject): void {
    if (this.#done || !this.channel) return;
    this.#notify(notificationFrame(method, params ?? {}), false);
  }

  #notify(frame: string, progress: boolean): void {
    const channel = this.channel!;
    if (channel.sendNotification) channel.sendNotification(this, frame, progress);
    else channel.send(frame);
  }

  /**
   * Makes this request answerable asynchronously; `frame` resolves with its one response. A
   * deadline of `shared`'s duration joins that set rather than setting a timer of its own.
   */
  pending(deadlineMs: number, shared?: DeadlineSet<RequestContext>): Promise<string | undefined> {
    if (shared !== undefined && deadlineMs === shared.durationMs) {
      this.#expiresAt = shared.expiryFromNow();
      this.#deadlines = shared;
      shared.add(this);
    } else if (deadlineMs > 0 && Number.isFinite(deadlineMs)) {
      this.#expiresAt = performance.now() + deadlineMs;
      this.#timer = setTimeout(expire, deadlineMs, this);
    }
    return new Promise((resolve) => (this.#resolve = resolve));
  }

  get expiresAt(): number {
    return this.#expiresAt;
  }

  /** The deadline elapsed (§13.1): -32014, and the handler's signal aborts. */
  expire(): void {
    this.abort(TIMEOUT);
  }

  /** The response to a handler's outcome (validated) — synchronous for sync handlers. */
  resultFrame(result: unknown): string {
    try {
      const problem = this.#services.resultProblem(this.descriptor, result);
      if (problem !== undefined) return errorFrame(this.id, problem);
      return resultFrame(this.id, result);
    } catch (thrown) {
      // Not JSON (BigInt, a cycle, a throwing toJSON): -32603 rather than a crash or a lost answer.
      return errorFrame(this.id, this.#services.reportThrown(this.descriptor.method, thrown));
    }
  }

  complete(result: unknown): void {
    if (this.#done) return;
    if (this.#pastDeadline()) return this.expire();
    this.#settle(this.resultFrame(result));
  }

  fail(thrown: unknown): void {
    if (this.#done) return;
    if (this.#pastDeadline()) return this.expire();
    this.#settle(errorFrame(this.id, this.#services.reportThrown(this.descriptor.method, thrown)));
  }

  /** Cancel (-32006) or deadline (-32014): the handler's signal aborts and the error answers now. */
  abort(error: RcpError): void {
    if (this.#done) return;
    (this.#controller ??= new AbortController()).abort(error);
    this.#settle(errorFrame(this.id, error.toObject()));
  }

  /** The transport is gone: abort the handler, answer nothing (§13.1). */
  abandon(): void {
    if (this.#done) return;
    (this.#controller ??= new AbortController()).abort(
      new RcpError(ErrorCode.Cancelled, "Cancelled: the transport closed"),
    );
    this.#settle(undefined);
  }

  /** A synchronous outcome: answered on the spot, so later progress or logs stay silent. */
  answeredNow(frame: string): string {
    this.#done = true;
    this.channel?.requestDone?.(this);
    return frame;
  }

  /**
   * Node runs due timers one duration list at a time: behind a lagging loop, the timer that
   * ends a handler can run before the earlier-due timer of its deadline, so the time is checked.
   */
  #pastDeadline(): boolean {
    return this.#expiresAt !== Number.POSITIVE_INFINITY && performance.now() >= this.#expiresAt;
  }

  #settle(frame: string | undefined): void {
    this.#done = true;
    this.channel?.requestDone?.(this);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#deadlines?.delete(this);
    this.#inFlight.delete(this.id);
    this.#resolve?.(frame);
  }
}

const TIMEOUT = new RcpError(ErrorCode.Timeout, "Timeout: the request deadline elapsed");

function expire(context: RequestContext): void {
  context.expire();
}
