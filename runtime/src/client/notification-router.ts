/**
 * Routes an incoming server notification to the call it belongs to. Progress is matched
 * by `progressToken` (§9); a log by the token in its `_meta` or, failing that, by the HTTP
 * exchange that carried it (§17.1). Frames are advisory: unknown methods, unknown tokens and
 * frames for calls already settled are dropped. A progress frame whose `partial` breaks the
 * schema still reaches the call, without `partial` and flagged with `malformedPartial`; any
 * other malformed frame is dropped. Both are reported (./tolerance.ts).
 */
import type { LogMessage, ReceivedProgress } from "../protocol/types.js";
import type { NotificationDescriptor, ClientProtocol } from "../protocol/descriptor.js";
import { ErrorCode } from "../protocol/errors.js";
import { isRecord } from "../protocol/dotted-paths.js";
import { callError } from "./call-error.js";
import type { PendingCall } from "./pending-call.js";
import { firstProblem, type Tolerance } from "./tolerance.js";

export interface CallLookup {
  byToken(token: string): PendingCall | undefined;
  /** The call whose own response stream carried the frame, if any. */
  byExchange(): PendingCall | undefined;
}

export function routeNotification(
  protocol: ClientProtocol,
  method: string,
  params: unknown,
  calls: CallLookup,
  tolerance: Tolerance,
): void {
  const descriptor = protocol.notifications[method];
  if (descriptor === undefined || !isRecord(params)) return;
  const routing: Routing = { protocol, descriptor, calls, tolerance };
  if (descriptor.role === "progress") routeProgress(routing, params);
  else if (descriptor.role === "log") routeLog(routing, params);
}

/** What routing one notification needs besides its params. */
interface Routing {
  protocol: ClientProtocol;
  descriptor: NotificationDescriptor;
  calls: CallLookup;
  tolerance: Tolerance;
}

function routeProgress({ protocol, descriptor, calls, tolerance }: Routing, params: Record<string, unknown>): void {
  const token = params.progressToken;
  const call = typeof token === "string" ? calls.byToken(token) : undefined;
  if (call === undefined) return;
  let problem: string | undefined;
  if (!descriptor.params(params)) {
    problem = firstProblem(descriptor.params, "params");
    const { partial: _malformed, ...withoutPartial } = params;
    if (params.partial === undefined || !descriptor.params(withoutPartial)) {
      return dropped(protocol, tolerance, call, "progress", problem);
    }
  } else if (params.partial !== undefined) {
    const partial = protocol.methods[call.method]?.partial;
    if (partial !== undefined && !partial(params.partial)) problem = firstProblem(partial, "params.partial");
  }
  const event = progressEvent(params);
  if (problem !== undefined) {
    if (tolerance.strict) return call.fail(malformed(protocol, call, "progress", problem));
    tolerance.report({
      kind: "progress",
      method: call.method,
      problem,
      message: `${call.method}: a progress frame's partial breaks the schema (${problem}); delivered without it, as malformedPartial`,
    });
    delete event.partial;
    event.malformedPartial = params.partial;
  }
  call.progress(event);
}

function routeLog({ protocol, descriptor, calls, tolerance }: Routing, params: Record<string, unknown>): void {
  const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
  const call = typeof token === "string" ? calls.byToken(token) : calls.byExchange();
  if (call === undefined) return;
  if (!descriptor.params(params))
    return dropped(protocol, tolerance, call, "log", firstProblem(descriptor.params, "params"));
  call.log(logMessage(params));
}

/** A frame the client cannot use at all: dropped and reported, or under `strict` the call's failure. */
function dropped(
  protocol: ClientProtocol,
  tolerance: Tolerance,
  call: PendingCall,
  kind: "progress" | "log",
  problem: string,
): void {
  if (tolerance.strict) return call.fail(malformed(protocol, call, kind, problem));
  tolerance.report({
    kind,
    method: call.method,
    problem,
    message: `${call.method}: a ${kind} frame breaks the schema (${problem}); dropped`,
  });
}

/** A strict client's verdict on a malformed frame: -32603, as for a malformed response. */
function malformed(protocol: ClientProtocol, call: PendingCall, kind: string, problem: string): Error {
  return callError(protocol, ErrorCode.InternalError, `Malformed ${kind} frame for ${call.method}`, { problem });
}

function progressEvent(fields: Record<string, unknown>): ReceivedProgress {
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
