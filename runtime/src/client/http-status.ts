/**
 * HTTP statuses the JSON-RPC layer never saw, as client errors (§5.2 status table):
 * auth -> -32012, 413 -> -32013, 429 -> -32011 with `retryAfterMs` from Retry-After,
 * 502/503/504 -> -32010, other 5xx -> -32603, 400 and 415 (not JSON) -> -32600. Anything else (404: not an
 * RCP endpoint) is a TransportError, since no §12 code describes it.
 */
import { ErrorCode, RcpError, type ErrorData } from "../protocol/errors.js";
import { TransportError } from "./transport.js";

const codeForStatus: Readonly<Record<number, number>> = {
  400: ErrorCode.InvalidRequest,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Unauthorized,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.InvalidRequest,
  429: ErrorCode.RateLimited,
  502: ErrorCode.BackendUnavailable,
  503: ErrorCode.BackendUnavailable,
  504: ErrorCode.BackendUnavailable,
};

/** `retryAfter` is the response's Retry-After header, if any. */
export function errorForStatus(status: number, retryAfter: string | null, now = Date.now()): Error {
  const code = codeForStatus[status] ?? (status >= 500 ? ErrorCode.InternalError : undefined);
  if (code === undefined) {
    const detail = status === 404 ? "not an RCP endpoint" : "unexpected HTTP status";
    return new TransportError(`HTTP ${status}: ${detail}`, { status });
  }
  const data: ErrorData = { httpStatus: status };
  const retryAfterMs = parseRetryAfter(retryAfter, now);
  if (retryAfterMs !== undefined) data.retryAfterMs = retryAfterMs;
  return new RcpError(code, `HTTP ${status}`, data);
}

/** Retry-After is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
