/**
 * Routes an incoming server notification to the call it belongs to. Progress is matched
 * by `progressToken` (§9); a log by the token in its `_meta` or, failing that, by the HTTP
 * exchange that carried it (§17.1). Frames are advisory: unknown methods, unknown tokens,
 * malformed params and frames for calls already settled are dropped.
 */
import type { LogMessage, ProgressEvent } from "../api.js";
import type { ProtocolDescriptor } from "../protocol.js";
import type { PendingCall } from "./pending-call.js";

export interface CallLookup {
  byToken(token: string): PendingCall | undefined;
  /** The call whose own response stream carried the frame, if any. */
  byExchange(): PendingCall | undefined;
}

export function routeNotification(
  protocol: ProtocolDescriptor,
  method: string,
  params: unknown,
  calls: CallLookup,
): void {
  const descriptor = protocol.notifications[method];
  if (descriptor === undefined || typeof params !== "object" || params === null) return;
  if (!descriptor.params(params)) return;
  const fields = params as Record<string, unknown>;
  if (descriptor.role === "progress") {
    const token = fields.progressToken;
    if (typeof token === "string" && typeof fields.progress === "number") calls.byToken(token)?.progress(progressEvent(fields));
  } else if (descriptor.role === "log") {
    const token = (fields._meta as { progressToken?: unknown } | undefined)?.progressToken;
    const call = typeof token === "string" ? calls.byToken(token) : calls.byExchange();
    if (typeof fields.level === "string") call?.log(logMessage(fields));
  }
}

function progressEvent(fields: Record<string, unknown>): ProgressEvent {
  return withPresent({ progress: fields.progress as number }, fields, ["stage", "message"], "partial");
}

function logMessage(fields: Record<string, unknown>): LogMessage {
  return withPresent({ level: fields.level as string }, fields, ["message", "logger"], "data");
}

/** Copies the members of `strings` that hold strings, and `anyValue` whatever it holds, when present. */
function withPresent<T extends object>(
  base: T,
  fields: Record<string, unknown>,
  strings: readonly string[],
  anyValue: string,
): T {
  const target = base as Record<string, unknown>;
  for (const key of strings) if (typeof fields[key] === "string") target[key] = fields[key];
  if (fields[anyValue] !== undefined) target[anyValue] = fields[anyValue];
  return base;
}
