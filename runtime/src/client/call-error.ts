/**
 * The errors a client call rejects with: an RcpError that also carries the §12.2 retry
 * policy of its code, looked up in the protocol's error table.
 */
import type { ErrorDescriptor, ClientProtocol } from "../protocol/descriptor.js";
import { ErrorCode, RcpError, type ErrorData } from "../protocol/errors.js";

/** Whether retrying an identical call may succeed (§12.2): "yes", "no", "maybe", or "n/a" where no retry applies. */
export type Retryability = ErrorDescriptor["retryable"];

/** What a failed client call rejects with: the server's (or the client's own) error, with its §12.2 retry verdict. */
export class CallError extends RcpError {
  /** Whether an identical retry may succeed (§12.2); unknown codes are "maybe". */
  readonly retryable: Retryability;

  constructor(code: number, message: string | undefined, data: ErrorData | undefined, retryable: Retryability) {
    super(code, message, data);
    this.name = "CallError";
    this.retryable = retryable;
  }
}

/** A CallError for `code`, with the retry policy the protocol gives that code. */
export function callError(protocol: ClientProtocol, code: number, message?: string, data?: ErrorData): CallError {
  // An unrecognised code is a generic failure (§12): its policy is unknown, so "maybe".
  return new CallError(code, message, data, protocol.errors[code]?.retryable ?? "maybe");
}

/**
 * Rebuilds the `error` member of a response. A malformed error object is still a failure
 * of the call, reported as -32603 with the received value in `data.received`.
 */
export function errorFromWire(protocol: ClientProtocol, error: unknown): CallError {
  if (isErrorObject(error)) {
    const wire = RcpError.fromObject(error);
    return callError(protocol, wire.code, wire.message, wire.data);
  }
  return callError(protocol, ErrorCode.InternalError, "Malformed error response", { received: error });
}

/** Adds the retry policy to an RcpError raised below the client (HTTP status mapping). */
export function withRetryability(protocol: ClientProtocol, thrown: unknown): unknown {
  if (thrown instanceof RcpError && !(thrown instanceof CallError)) {
    return callError(protocol, thrown.code, thrown.message, thrown.data);
  }
  return thrown;
}

function isErrorObject(value: unknown): value is { code: number; message: string; data?: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const { code, message } = value as { code?: unknown; message?: unknown };
  return Number.isInteger(code) && typeof message === "string";
}
