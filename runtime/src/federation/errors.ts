/** How federation reads failures: everything an engine does wrong becomes an RcpError with a §12 code. */
import { ErrorCode, RcpError } from "../errors.js";
import { TransportError } from "../client/transport.js";

/** A transport that died or never connected is the engine being down (-32010); anything else unknown is -32603. */
export function asRcpError(thrown: unknown): RcpError {
  if (thrown instanceof RcpError) return thrown;
  if (thrown instanceof TransportError) {
    return new RcpError(ErrorCode.BackendUnavailable, `Backend unavailable: ${thrown.message}`, { retryable: true });
  }
  const detail = thrown instanceof Error ? thrown.message : String(thrown);
  return new RcpError(ErrorCode.InternalError, "Internal error", { detail });
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
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** -32006 for an aborted signal, keeping an RcpError reason (a deadline's -32014, say) as it is. */
export function cancelled(reason: unknown): RcpError {
  if (reason instanceof RcpError) return reason;
  const detail = reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason);
  return new RcpError(ErrorCode.Cancelled, "Cancelled", detail === undefined ? undefined : { detail });
}
