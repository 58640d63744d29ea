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

/** Which protocol the frame guards check against. */
export interface GuardOptions<P extends ProtocolDescriptor> {
  /** Default: the protocol your generated code defined (see useRcpProtocol). */
  protocol?: P;
}

/** A valid request, of `method` when given. */
export function isRequest<P extends ProtocolDescriptor = ProtocolDescriptor, K extends MethodName<P> = MethodName<P>>(
  frame: unknown,
  method?: K,
  options: GuardOptions<P> = {},
): frame is RequestOf<P, K> {
  const check = validateObject(frame, options);
  return check?.ok === true && check.kind === "request" && (method === undefined || methodOf(check.frame) === method);
}

/** A valid notification, of `method` when given. */
export function isNotification<
  P extends ProtocolDescriptor = ProtocolDescriptor,
  K extends NotificationName<P> = NotificationName<P>,
>(frame: unknown, method?: K, options: GuardOptions<P> = {}): frame is NotificationOf<P, K> {
  const check = validateObject(frame, options);
  return (
    check?.ok === true && check.kind === "notification" && (method === undefined || methodOf(check.frame) === method)
  );
}

/** A valid success response; with `method`, its result also fits that method's result schema. */
export function isResult<P extends ProtocolDescriptor = ProtocolDescriptor, K extends MethodName<P> = MethodName<P>>(
  frame: unknown,
  method?: K,
  options: Omit<ValidateFrameOptions<P>, "method"> = {},
): frame is ResultResponseOf<P, K> {
  const check = validateObject(frame, method === undefined ? options : { ...options, method });
  return check?.ok === true && check.kind === "result";
}

/** A valid error response, with `code` when given. */
export function isErrorResponse(
  frame: unknown,
  code?: number,
  options: GuardOptions<ProtocolDescriptor> = {},
): frame is RcpErrorResponse {
  const check = validateObject(frame, options);
  return (
    check?.ok === true &&
    check.kind === "error" &&
    (code === undefined || (frame as RcpErrorResponse).error.code === code)
  );
}

/** Any valid response, success or error. */
export function isResponse(
  frame: unknown,
  options: GuardOptions<ProtocolDescriptor> = {},
): frame is RcpResultResponse | RcpErrorResponse {
  const check = validateObject(frame, options);
  return check?.ok === true && (check.kind === "result" || check.kind === "error");
}

/** A valid non-empty batch (§11). */
export function isBatch<P extends ProtocolDescriptor = ProtocolDescriptor>(
  frame: unknown,
  options: GuardOptions<P> = {},
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

function methodOf(frame: unknown): unknown {
  return (frame as { method?: unknown }).method;
}
