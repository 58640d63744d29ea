/** How federation reads failures: everything an engine does wrong becomes an RcpError with a §12 code. */
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { TransportError } from "../client/transport.js";

/**
 * A transport that died or never connected is the engine being down (-32010); anything else
 * unknown is -32603. A transport's message names where the engine is (`POST http://10.0.0.7/rcp
 * failed`, a command line): a federator is often the one public door to engines on a private
 * network, so unless `exposeEndpoints` the error says only that the engine could not be reached,
 * as catalog/list leaves endpoints out.
 */
export function asRcpError(thrown: unknown, exposeEndpoints = true): RcpError {
  if (thrown instanceof RcpError) return thrown;
  if (thrown instanceof TransportError) {
    const what = exposeEndpoints ? thrown.message : thrown.connectionLost ? "connection lost" : "engine unreachable";
    return new RcpError(ErrorCode.BackendUnavailable, `Backend unavailable: ${what}`, { retryable: true });
  }
  const detail = exposeEndpoints && thrown instanceof Error ? thrown.message : undefined;
  return new RcpError(ErrorCode.InternalError, "Internal error", detail === undefined ? undefined : { detail });
}

/** Rejects with a -32014 after `ms`, or with the signal's reason once it aborts; `promise` keeps running. */
export function within<T>(promise: Promise<T>, ms: number, signal: AbortSignal | undefined, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => finish(() => reject(new RcpError(ErrorCode.Timeout, `Timeout: ${what} took longer than ${ms} ms`))),
      Math.max(0, ms),
    );
    const onAbort = () => finish(() => reject(cancelled(signal!.reason)));
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      settle();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => finish(() => resolve(value)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes on the promise's own rejection, unchanged
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** -32006 for an aborted signal, keeping an RcpError reason (a deadline's -32014, say) as it is. */
export function cancelled(reason: unknown): RcpError {
  if (reason instanceof RcpError) return reason;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an abort reason can be anything (JSON.stringify would throw on a cycle); String() never throws
  const detail = reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason);
  return new RcpError(ErrorCode.Cancelled, "Cancelled", detail === undefined ? undefined : { detail });
}
