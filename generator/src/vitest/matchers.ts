/**
 * The types of the RCP matchers on vitest's `expect`: toBeValidRcpFrame, toBeRcpRequest,
 * toBeRcpResult, toBeRcpError and toBeWellFormedProgressStream, which
 * `expect.extend(rcpMatchers(protocol))` registers (`@rcp-gen/runtime/testing`), each checking
 * frames against the protocol given there.
 */
import type { ErrorMatcherOptions, FrameCheckOptions, StreamMatcherOptions } from "@rcp-gen/runtime/testing";

/** The matchers as they appear on `expect(value)`. */
export interface RcpMatchers<R = unknown> {
  /** A valid frame or batch; `{ method }`, `{ request }` or `{ pending }` check a result against its method. */
  toBeValidRcpFrame(options?: FrameCheckOptions): R;
  /** A valid request (of `method`, when given), params checked against the method's schema. */
  toBeRcpRequest(method?: string, options?: FrameCheckOptions): R;
  /** A valid success response; with `method`, its result fits that method's result schema. */
  toBeRcpResult(method?: string, options?: FrameCheckOptions): R;
  /** A valid error response with `code` and, when given, `error.data.field` (§12.1). */
  toBeRcpError(code?: number, options?: ErrorMatcherOptions): R;
  /** Recorded frames of one streamed call: one token, progress never going down, one final response last. */
  toBeWellFormedProgressStream(options?: StreamMatcherOptions): R;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- merges into vitest's Matchers<T = any>, whose declaration this must repeat
  interface Matchers<T = any> extends RcpMatchers<T> {}
}
