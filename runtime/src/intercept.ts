/**
 * Server interceptors: the chain around handler calls (ServerOptionsBase.interceptors). It is
 * composed once per server; each call then travels as a ServerCall, and the innermost step runs
 * the handler with the call's params and meta, its progress going back out through the
 * call's `onProgress`, so an interceptor sees a streaming call's progress and its end. The
 * request itself (deadline, cancel, exactly one answer) stays with RequestContext. Servers without interceptors never load
 * this path's costs: ServerCore calls handlers directly then.
 */
import type { CallNext, Handler, HandlerContext, Interceptor, JsonObject, ProgressEvent, ServerCall } from "./api.js";
import { RequestContext } from "./context.js";
import { drainGenerator, isGenerator, isThenable } from "./handler-outcome.js";
import { composeInterceptors } from "./interceptor-chain.js";

/** What takeSettledValue gives for an outcome whose value is not known yet. */
export const NOT_SETTLED: unique symbol = Symbol("not settled");

/**
 * The innermost step's latest promise for a handler's plain (not promised) value, and that
 * value. Interceptors that return `next(call)` as they got it (a guard, a pass-through) hand
 * this very promise back, whose value is then known without waiting for it: the request is
 * answered synchronously, as without interceptors, instead of taking the pending path.
 */
let settledPromise: Promise<unknown> | undefined;
let settledValue: unknown;

export function interceptHandlers(
  interceptors: readonly Interceptor<ServerCall>[],
  handlerOf: (method: string) => Handler<any, unknown, any>,
): CallNext<ServerCall> {
  return composeInterceptors(interceptors, (call) => {
    let outcome: unknown;
    try {
      outcome = handlerOf(call.method)(call.params, new InterceptedContext(call));
      // Reading `then` or `next` runs user code too (a getter, a Proxy): a throw there rejects.
      if (isThenable(outcome)) return Promise.resolve(outcome);
      if (isGenerator(outcome)) {
        const ctx = call.ctx;
        // Answered already (cancel, deadline, disconnect): RequestContext knows without making a signal.
        return drainGenerator(outcome, call.onProgress, () =>
          ctx instanceof RequestContext ? ctx.done : ctx.signal.aborted,
        );
      }
    } catch (thrown) {
      return Promise.reject(thrown);
    }
    settledValue = outcome;
    return (settledPromise = Promise.resolve(outcome));
  });
}

/**
 * The value `outcome` is already fulfilled with when it is the innermost step's promise for a
 * handler's plain value, else NOT_SETTLED. Any other promise (an async interceptor's, one that
 * rewrote the result) is waited for as usual. Reading forgets the value.
 */
export function takeSettledValue(outcome: Promise<unknown>): unknown {
  const value = outcome === settledPromise ? settledValue : NOT_SETTLED;
  settledPromise = settledValue = undefined;
  return value;
}

/** Runs `context`'s call through the chain: its outcome, a rejection for a synchronous throw. */
export function callThrough(chain: CallNext<ServerCall>, context: RequestContext, params: unknown): Promise<unknown> {
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
  try {
    return chain(call);
  } catch (thrown) {
    return Promise.reject(thrown);
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
