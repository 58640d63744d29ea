/**
 * JSON-RPC / RCP error codes (§12) and the one error class the runtime throws and
 * handlers may throw to answer with a specific code. Anything else a handler throws
 * is reported as -32603 "Internal error" so internals never reach the wire.
 */
import type { ErrorDescriptor } from "./descriptor.js";

/**
 * RCP/1's error table (§12, §12.2): each standard code's symbol, meaning and retry verdict. Codes
 * -32700, -32600 and -32601 are not in the §12.2 table; a malformed request cannot succeed
 * unchanged, so they are not retryable. The one source of the standard codes: `ErrorCode` and
 * RcpError's default messages derive from it, generated code refers to it (adding only the codes
 * a schema folder's errors.json defines beyond it), and rcp-gen refuses an errors.json that
 * disagrees with it on a code both define.
 */
export const rcpErrors = {
  "-32700": { code: -32700, symbol: "ParseError", message: "Invalid JSON.", retryable: "no" },
  "-32600": { code: -32600, symbol: "InvalidRequest", message: "Not a valid Request object.", retryable: "no" },
  "-32601": {
    code: -32601,
    symbol: "MethodNotFound",
    message: "Method not found (reserved; RCP prefers -32004).",
    retryable: "no",
  },
  "-32602": {
    code: -32602,
    symbol: "InvalidParams",
    message: "Missing/malformed params or filter field.",
    retryable: "no",
  },
  "-32603": { code: -32603, symbol: "InternalError", message: "Server-side failure.", retryable: "maybe" },
  "-32001": { code: -32001, symbol: "NotInitialized", message: "Called before initialize.", retryable: "yes" },
  "-32002": { code: -32002, symbol: "VersionMismatch", message: "No common protocol version.", retryable: "no" },
  "-32003": {
    code: -32003,
    symbol: "CapabilityMissing",
    message: "Method exists but not advertised.",
    retryable: "no",
  },
  "-32004": { code: -32004, symbol: "UnknownMethod", message: "Method not defined by RCP.", retryable: "no" },
  "-32005": {
    code: -32005,
    symbol: "OptionUnsupported",
    message: "A requested option (mode/method) is not advertised.",
    retryable: "no",
  },
  "-32006": {
    code: -32006,
    symbol: "Cancelled",
    message: "Request was cancelled via notifications/cancel.",
    retryable: "n/a",
  },
  "-32010": {
    code: -32010,
    symbol: "BackendUnavailable",
    message: "Model offline, index not built, upstream down.",
    retryable: "yes",
  },
  "-32011": {
    code: -32011,
    symbol: "RateLimited",
    message: "Server is shedding load; client should back off.",
    retryable: "yes",
  },
  "-32012": {
    code: -32012,
    symbol: "Unauthorized",
    message: "Caller is unauthenticated, or not authorised for this corpus/method.",
    retryable: "no",
  },
  "-32013": {
    code: -32013,
    symbol: "PayloadTooLarge",
    message: "Request exceeds a server limit (body bytes, batch size, inputs count).",
    retryable: "no",
  },
  "-32014": {
    code: -32014,
    symbol: "Timeout",
    message: "The server's own deadline for this request elapsed.",
    retryable: "yes",
  },
  "-32015": { code: -32015, symbol: "NotFound", message: "A referenced entity does not exist.", retryable: "no" },
  "-32016": {
    code: -32016,
    symbol: "Conflict",
    message: "The write conflicts with current state.",
    retryable: "maybe",
  },
} as const satisfies Readonly<Record<number, ErrorDescriptor & { readonly symbol: string }>>;

/** Codes named by their §12 symbols (`ErrorCode.NotFound` is -32015): `rcpErrors` by symbol. */
export const ErrorCode = Object.fromEntries(Object.values(rcpErrors).map(({ symbol, code }) => [symbol, code])) as {
  readonly [E in (typeof rcpErrors)[keyof typeof rcpErrors] as E["symbol"]]: E["code"];
};

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

/**
 * The message of an RcpError made without one, by code: its symbol in words (`NotFound`: "Not
 * found"), but -32600 as JSON-RPC 2.0 writes it. Worded once here, not per error: a handler may
 * throw one per request (`new RcpError(ErrorCode.NotFound)` for every miss).
 */
const defaultMessages: Readonly<Record<number, string>> = Object.fromEntries(
  Object.values(rcpErrors).map(({ code, symbol }) => {
    const words = symbol.replace(/\B([A-Z])/g, " $1").toLowerCase();
    return [code, code === ErrorCode.InvalidRequest ? "Invalid Request" : words[0]!.toUpperCase() + words.slice(1)];
  }),
);

/** "Error" for a code outside RCP/1's table. */
function defaultMessage(code: number): string {
  return defaultMessages[code] ?? "Error";
}

/** An error answered to the caller with its code, message and data: throw one from a handler or an interceptor. */
export class RcpError extends Error {
  readonly code: number;
  readonly data: ErrorData | undefined;

  constructor(code: number, message?: string, data?: ErrorData) {
    super(message ?? defaultMessage(code));
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
  return { code: ErrorCode.InternalError, message: defaultMessage(ErrorCode.InternalError) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
