/**
 * Server interceptors: the chain around handler calls (ServerOptionsBase.interceptors). It is
 * composed once per server; each call then travels as a ServerCall, and the innermost step runs
 * the handler with the call's params and meta, its progress going back out through the
 * call's `onProgress`, so an interceptor sees a streaming call's progress and its end. The
 * request itself (deadline, cancel, exactly one answer) stays with RequestContext. Servers
 * without interceptors never pay for this path: ServerCore calls handlers directly then.
 */
import type {
  CallNext,
  Handler,
  HandlerContext,
  Interceptor,
  JsonObject,
  ProgressEvent,
  ServerCall,
} from "../protocol/types.js";
import { RequestContext } from "./context.js";
import { settleOutcome, type ProgressSink } from "./handler-outcome.js";
import { composeInterceptors } from "../protocol/interceptor-chain.js";

/** A server's interceptors composed once around its handlers. */
export class ServerInterceptors {
  readonly #chain: CallNext<ServerCall>;
  /**
   * The innermost step's latest promise for a handler's plain (not promised) value, and that
   * value. Interceptors that return `next(call)` as they got it (a guard, a pass-through) hand
   * this very promise back, whose value is then known without waiting for it: the request is
   * answered synchronously, as without interceptors, instead of taking the pending path.
   */
  #settledPromise: Promise<unknown> | undefined;
  #settledValue: unknown;

  constructor(
    interceptors: readonly Interceptor<ServerCall>[],
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any params and result: a table holds handlers of every method
    handlerOf: (method: string) => Handler<any, unknown, any>,
  ) {
    this.#chain = composeInterceptors(interceptors, (call) => {
      let outcome: unknown;
      try {
        outcome = settleOutcome(
          handlerOf(call.method)(call.params, new InterceptedContext(call)),
          new CallProgress(call),
        );
      } catch (thrown) {
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what was thrown, unchanged
        return Promise.reject(thrown);
      }
      if (outcome instanceof Promise) return outcome;
      this.#settledValue = outcome;
      return (this.#settledPromise = Promise.resolve(outcome));
    });
  }

  /**
   * Runs `context`'s call through the chain. As settleOutcome: the value when it is known at
   * once (the handler's plain value, handed back untouched), else a Promise, which rejects for
   * a synchronous throw. Any other promise (an async interceptor's, one that rewrote the
   * result) is waited for as usual.
   */
  call(context: RequestContext, params: unknown): unknown {
    const call: ServerCall = {
      side: "server",
      id: context.id,
      method: context.method,
      descriptor: context.descriptor,
      params,
      meta: context.meta,
      ctx: context,
      onProgress: (event) => context.progress(event),
    };
    let outcome: unknown;
    try {
      outcome = this.#chain(call);
    } catch (thrown) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on what was thrown, unchanged
      return Promise.reject(thrown);
    }
    const settled = outcome === this.#settledPromise;
    const value = this.#settledValue;
    this.#settledPromise = this.#settledValue = undefined;
    // Promise.resolve: an interceptor that returns a non-promise (or a hostile thenable) still settles.
    return settled ? value : Promise.resolve(outcome);
  }
}

/** A generator handler's progress goes back out through the interceptors; it stops once the request was answered. */
class CallProgress implements ProgressSink {
  readonly #call: ServerCall;

  constructor(call: ServerCall) {
    this.#call = call;
  }

  progress(event: ProgressEvent): void {
    this.#call.onProgress(event);
  }

  get done(): boolean {
    const ctx = this.#call.ctx;
    // RequestContext knows without making a signal.
    return ctx instanceof RequestContext ? ctx.done : ctx.signal.aborted;
  }
}

/**
 * The context the handler gets: the request's, with the call's `meta` and `onProgress` as an
 * interceptor passed them on, so its progress goes back out through the interceptors. A class:
 * an object literal with getters, made per call, cost several times the whole dispatch.
 */
class InterceptedContext<P> implements HandlerContext<P> {
  readonly #call: ServerCall<unknown, P>;

  constructor(call: ServerCall<unknown, P>) {
    this.#call = call;
  }

  get id() {
    return this.#call.ctx.id;
  }
  get method() {
    return this.#call.ctx.method;
  }
  get meta() {
    return this.#call.meta;
  }
  get signal() {
    return this.#call.ctx.signal;
  }
  get session() {
    return this.#call.ctx.session;
  }
  get degraded() {
    return this.#call.ctx.degraded;
  }
  get auth() {
    return this.#call.ctx.auth;
  }
  get transport() {
    return this.#call.ctx.transport;
  }
  progress(event: ProgressEvent<P>): void {
    this.#call.onProgress(event);
  }
  log(level: string, data: unknown, logger?: string): void {
    this.#call.ctx.log(level, data, logger);
  }
  notify(method: string, params?: JsonObject): void {
    this.#call.ctx.notify(method, params);
  }
}
