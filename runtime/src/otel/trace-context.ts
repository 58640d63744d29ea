/**
 * W3C Trace Context carried in `_meta` (§4.4, §17.2): `_meta.traceparent` and `_meta.tracestate`
 * hold exactly what the HTTP headers of the same names would (version 00), so one trace crosses
 * stdio and HTTP alike, and `_meta.traceId` holds the 32-hex trace id for logs that read only
 * the §17.2 correlation id. Written by the client interceptor, read by the server's.
 */
import { createTraceState, isSpanContextValid, type SpanContext } from "@opentelemetry/api";
import type { JsonObject } from "../protocol/types.js";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** `_meta` with the span's context added; a `traceId` the caller set is kept. */
export function withTraceContext(meta: Readonly<JsonObject>, span: SpanContext): JsonObject {
  const flags = span.traceFlags.toString(16).padStart(2, "0");
  const carried: JsonObject = { ...meta, traceparent: `00-${span.traceId}-${span.spanId}-${flags}` };
  const state = span.traceState?.serialize();
  if (state) carried.tracestate = state;
  carried.traceId ??= span.traceId;
  return carried;
}

/** The remote parent named by `_meta.traceparent`, or undefined when absent or malformed. */
export function remoteParent(meta: Readonly<JsonObject>): SpanContext | undefined {
  const header = meta.traceparent;
  if (typeof header !== "string") return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  // Version ff is invalid; version 00 has nothing after the flags; later versions may (W3C §3.2.4).
  if (!match || match[1] === "ff" || (match[1] === "00" && match[5] !== undefined)) return undefined;
  const state = meta.tracestate;
  const parent: SpanContext = {
    traceId: match[2]!,
    spanId: match[3]!,
    traceFlags: parseInt(match[4]!, 16) & 1,
    isRemote: true,
    ...(typeof state === "string" && state !== "" ? { traceState: createTraceState(state) } : {}),
  };
  return isSpanContextValid(parent) ? parent : undefined;
}
