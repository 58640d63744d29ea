/**
 * The testing entry (`@rcp-gen/runtime/testing`): frames validated the way a person reads
 * them (one line per problem: path, expected, found), type guards for each frame kind, and
 * the check of a recorded progress stream, and the dotted-path helpers (`rerank.topN`) that
 * read and write params and capabilities as `x-rcp` names them. Each check is handed the
 * protocol it checks against (generated `protocol`); `rcpMatchers(protocol)` makes the matchers
 * for any `expect.extend`. No test framework needed.
 *
 * @module @rcp-gen/runtime/testing
 */
export {
  validateFrame,
  type FrameCheck,
  type FrameCheckOptions,
  type PendingMethods,
  type ValidateFrameOptions,
} from "./validate-frame.js";
export {
  isBatch,
  isErrorResponse,
  isNotification,
  isRequest,
  isResponse,
  isResult,
  type GuardOptions,
} from "./guards.js";
export { checkProgressStream, type ProgressStreamOptions, type StreamCheck } from "./progress-stream.js";
export { rcpMatchers, type ErrorMatcherOptions, type MatcherOutcome, type StreamMatcherOptions } from "./matchers.js";
export type { FrameProblem, PathSegment } from "./problem.js";
export { schemaProblems } from "./schema-problems.js";
export { firstIssueLine, issueMessage } from "../protocol/validation-issue.js";
export type * from "./frame-types.js";
export { deletePath, getPath, setPath } from "../protocol/dotted-paths.js";
