/**
 * Type guards over validateFrame: true only for a frame that is valid as a whole, so the
 * narrowed type can be trusted (params and results checked against their schemas).
 */
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import type {
  MethodName,
  NotificationName,
  NotificationOf,
  RcpErrorResponse,
  RcpResultResponse,
  RequestOf,
  ResultResponseOf,
  TypedMessage,
} from "./frame-types.js";
import { validateFrame, type FrameCheck, type ValidateFrameOptions } from "./validate-frame.js";

/** The protocol a guard checks against (generated `protocol`), and the frame's method or code when it matters. */
export interface GuardOptions<P extends ProtocolDescriptor, K extends string = string> {
  protocol: P;
  /** Only a frame of this method (or notification) is a match. */
  method?: K;
}

/** A valid request, of `options.method` when given. */
export function isRequest<P extends ProtocolDescriptor, K extends MethodName<P> = MethodName<P>>(
  frame: unknown,
  options: GuardOptions<P, K>,
): frame is RequestOf<P, K> {
  const check = validateObject(frame, { protocol: options.protocol });
  return check?.ok === true && check.kind === "request" && hasMethod(check.frame, options.method);
}

/** A valid notification, of `options.method` when given. */
export function isNotification<P extends ProtocolDescriptor, K extends NotificationName<P> = NotificationName<P>>(
  frame: unknown,
  options: GuardOptions<P, K>,
): frame is NotificationOf<P, K> {
  const check = validateObject(frame, { protocol: options.protocol });
  return check?.ok === true && check.kind === "notification" && hasMethod(check.frame, options.method);
}

/** A valid success response; with `options.method` (or `request`), its result also fits that method's result schema. */
export function isResult<P extends ProtocolDescriptor, K extends MethodName<P> = MethodName<P>>(
  frame: unknown,
  options: ValidateFrameOptions<P> & { method?: K },
): frame is ResultResponseOf<P, K> {
  const check = validateObject(frame, options);
  return check?.ok === true && check.kind === "result";
}

/** A valid error response, with `options.code` when given. */
export function isErrorResponse(
  frame: unknown,
  options: { protocol: ProtocolDescriptor; code?: number },
): frame is RcpErrorResponse {
  const check = validateObject(frame, { protocol: options.protocol });
  return (
    check?.ok === true &&
    check.kind === "error" &&
    (options.code === undefined || (frame as RcpErrorResponse).error.code === options.code)
  );
}

/** Any valid response, success or error. */
export function isResponse(
  frame: unknown,
  options: { protocol: ProtocolDescriptor },
): frame is RcpResultResponse | RcpErrorResponse {
  const check = validateObject(frame, options);
  return check?.ok === true && (check.kind === "result" || check.kind === "error");
}

/** A valid non-empty batch (§11). */
export function isBatch<P extends ProtocolDescriptor>(
  frame: unknown,
  options: { protocol: P },
): frame is TypedMessage<P>[] {
  const check = validateObject(frame, options);
  return check?.ok === true && check.kind === "batch";
}

/** Guards narrow values, so JSON text (which validateFrame also reads) is never a match. */
function validateObject<P extends ProtocolDescriptor>(
  frame: unknown,
  options: ValidateFrameOptions<P>,
): FrameCheck<P> | undefined {
  return typeof frame === "object" && frame !== null ? validateFrame(frame, options) : undefined;
}

function hasMethod(frame: unknown, method: string | undefined): boolean {
  return method === undefined || (frame as { method?: unknown }).method === method;
}
