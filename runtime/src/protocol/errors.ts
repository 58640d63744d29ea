/**
 * JSON-RPC / RCP error codes (§12) and the one error class the runtime throws and
 * handlers may throw to answer with a specific code. Anything else a handler throws
 * is reported as -32603 "Internal error" so internals never reach the wire.
 */

/** Codes named by their §12 symbols. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  NotInitialized: -32001,
  VersionMismatch: -32002,
  CapabilityMissing: -32003,
  UnknownMethod: -32004,
  OptionUnsupported: -32005,
  Cancelled: -32006,
  BackendUnavailable: -32010,
  RateLimited: -32011,
  Unauthorized: -32012,
  PayloadTooLarge: -32013,
  Timeout: -32014,
  NotFound: -32015,
  Conflict: -32016,
} as const;

/** The name of an error code (`InvalidParams`, `Cancelled`, ...). */
export type ErrorSymbol = keyof typeof ErrorCode;

/** Conventional `error.data` members (§12.1); any other keys are allowed. */
export interface ErrorData {
  field?: string;
  option?: string;
  retryable?: boolean;
  retryAfterMs?: number;
  detail?: string;
  [key: string]: unknown;
}

/** The wire shape of a JSON-RPC error. */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

const defaultMessages: Record<number, string> = {
  [ErrorCode.ParseError]: "Parse error",
  [ErrorCode.InvalidRequest]: "Invalid Request",
  [ErrorCode.MethodNotFound]: "Method not found",
  [ErrorCode.InvalidParams]: "Invalid params",
  [ErrorCode.InternalError]: "Internal error",
  [ErrorCode.NotInitialized]: "Not initialized",
  [ErrorCode.VersionMismatch]: "Version mismatch",
  [ErrorCode.CapabilityMissing]: "Capability missing",
  [ErrorCode.UnknownMethod]: "Unknown method",
  [ErrorCode.OptionUnsupported]: "Option unsupported",
  [ErrorCode.Cancelled]: "Cancelled",
  [ErrorCode.BackendUnavailable]: "Backend unavailable",
  [ErrorCode.RateLimited]: "Rate limited",
  [ErrorCode.Unauthorized]: "Unauthorized",
  [ErrorCode.PayloadTooLarge]: "Payload too large",
  [ErrorCode.Timeout]: "Timeout",
  [ErrorCode.NotFound]: "Not found",
  [ErrorCode.Conflict]: "Conflict",
};

/** An error answered to the caller with its code, message and data: throw one from a handler or an interceptor. */
export class RcpError extends Error {
  readonly code: number;
  readonly data: ErrorData | undefined;

  constructor(code: number, message?: string, data?: ErrorData) {
    super(message ?? defaultMessages[code] ?? "Error");
    this.name = "RcpError";
    this.code = code;
    this.data = data;
  }

  /** Rebuilds an error received on the wire (used by clients). */
  static fromObject(error: ErrorObject): RcpError {
    const data = isPlainObject(error.data) ? (error.data as ErrorData) : undefined;
    return new RcpError(error.code, error.message, data);
  }

  /** The JSON-RPC error object sent on the wire. */
  toObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** `-32602` naming the offending dotted params path (§12.1 `field`). */
export function invalidParams(field: string, detail: string): RcpError {
  return new RcpError(ErrorCode.InvalidParams, `Invalid params: ${field}: ${detail}`, { field, detail });
}

/**
 * The error object to put on the wire for anything thrown. Only RcpError keeps its
 * code, message and data; every other value becomes -32603 without its message or stack.
 */
export function toErrorObject(thrown: unknown): ErrorObject {
  if (thrown instanceof RcpError && Number.isInteger(thrown.code)) return thrown.toObject();
  return { code: ErrorCode.InternalError, message: defaultMessages[ErrorCode.InternalError]! };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
