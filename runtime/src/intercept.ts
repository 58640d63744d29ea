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
import { drainGenerator, isGenerator } from "./handler-outcome.js";
import { composeInterceptors } from "./interceptor-chain.js";

export function interceptHandlers(
  interceptors: readonly Interceptor<ServerCall>[],
  handlerOf: (method: string) => Handler<any, unknown, any>,
): CallNext<ServerCall> {
  return composeInterceptors(interceptors, async (call) => {
    const outcome = handlerOf(call.method)(call.params, new InterceptedContext(call));
    if (!isGenerator(outcome)) return outcome;
    const ctx = call.ctx;
    // Answered already (cancel, deadline, disconnect): RequestContext knows without making a signal.
    return drainGenerator(outcome, call.onProgress, () =>
      ctx instanceof RequestContext ? ctx.done : ctx.signal.aborted,
    );
  });
}

/** Runs `context`'s request through the chain; the context answers it (or cancel and deadline do first). */
export function callThrough(chain: CallNext<ServerCall>, context: RequestContext, params: unknown): void {
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
  let outcome: Promise<unknown>;
  try {
    outcome = chain(call);
  } catch (thrown) {
    outcome = Promise.reject(thrown);
  }
  // Promise.resolve: an interceptor that returns a non-promise (or a hostile thenable) still settles.
  Promise.resolve(outcome).then(
    (result) => context.complete(result),
    (thrown) => context.fail(thrown),
  );
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
