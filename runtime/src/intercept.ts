/**
 * Server interceptors: the chain around handler calls (ServerOptionsBase.interceptors). It is
 * composed once per server; each call then travels as a ServerCall, and the innermost step runs
 * the handler with the call's params, meta and signal, its progress going back out through the
 * call's `onProgress`, so an interceptor sees a streaming call's progress and its end. The request itself (deadline,
 * cancel, exactly one answer) stays with RequestContext. Servers without interceptors never load
 * this path's costs: ServerCore calls handlers directly then.
 */
import type { CallNext, Handler, HandlerContext, Interceptor, ServerCall } from "./api.js";
import type { RequestContext } from "./context.js";
import { drainGenerator, isGenerator } from "./handler-outcome.js";
import { composeInterceptors } from "./interceptor-chain.js";

export function interceptHandlers(
  interceptors: readonly Interceptor<ServerCall>[],
  handlerOf: (method: string) => Handler<any, unknown, any>,
): CallNext<ServerCall> {
  return composeInterceptors(interceptors, async (call) => {
    const outcome = handlerOf(call.method)(call.params, handlerContext(call));
    if (!isGenerator(outcome)) return outcome;
    return drainGenerator(outcome, call.onProgress, () => call.signal.aborted);
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
    signal: context.signal,
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
 * The context the handler gets: the request's, with the call's `meta`, `signal` and `onProgress`
 * as an interceptor passed them on, so its progress goes back out through the interceptors.
 */
function handlerContext<P>(call: ServerCall<unknown, P>): HandlerContext<P> {
  const ctx = call.ctx;
  return {
    get id() {
      return ctx.id;
    },
    get method() {
      return ctx.method;
    },
    meta: call.meta,
    signal: call.signal,
    get session() {
      return ctx.session;
    },
    get degraded() {
      return ctx.degraded;
    },
    get auth() {
      return ctx.auth;
    },
    get transport() {
      return ctx.transport;
    },
    progress: call.onProgress,
    log: (level, data, logger) => ctx.log(level, data, logger),
    notify: (method, params) => ctx.notify(method, params),
  };
}
