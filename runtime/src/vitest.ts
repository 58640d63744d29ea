/**
 * `import "@rcp-gen/runtime/vitest"` registers the RCP matchers with vitest's `expect`:
 * toBeValidRcpFrame, toBeRcpRequest, toBeRcpResult, toBeRcpError and
 * toBeWellFormedProgressStream. Frames are checked against the protocol your generated code
 * defined (or `{ protocol }`, or useRcpProtocol). vitest is an optional peer dependency: only
 * this entry imports it.
 */
import { expect } from "vitest";
import type { ProtocolDescriptor } from "./protocol.js";
import { rcpMatchers, type ErrorMatcherOptions } from "./testing/matchers.js";
import type { ProgressStreamOptions } from "./testing/progress-stream.js";
import type { FrameCheckOptions } from "./testing/validate-frame.js";

expect.extend(rcpMatchers);

export { rcpMatchers, type ErrorMatcherOptions } from "./testing/matchers.js";
export { useRcpProtocol } from "./testing/protocol-choice.js";

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
  interface Matchers<T = any> extends RcpMatchers<T> {}
}
