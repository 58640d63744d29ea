/**
 * The RCP matchers registered with vitest's `expect` when `rcp-gen/vitest` is imported:
 * toBeValidRcpFrame, toBeRcpRequest, toBeRcpResult, toBeRcpError and
 * toBeWellFormedProgressStream, built on `@rcp-gen/runtime/testing`. Frames are checked against
 * the protocol your generated code defined (or `{ protocol }`, or useRcpProtocol).
 */
import { expect } from "vitest";
import type { ProtocolDescriptor } from "@rcp-gen/runtime";
import {
  rcpMatchers,
  type ErrorMatcherOptions,
  type FrameCheckOptions,
  type ProgressStreamOptions,
} from "@rcp-gen/runtime/testing";

expect.extend(rcpMatchers);

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
  toBeWellFormedProgressStream(options?: ProgressStreamOptions<ProtocolDescriptor>): R;
}

declare module "vitest" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any -- merges into vitest's Matchers<T = any>, whose declaration this must repeat
  interface Matchers<T = any> extends RcpMatchers<T> {}
}
