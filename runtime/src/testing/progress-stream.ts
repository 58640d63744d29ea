/**
 * A recorded streamed call (§9, §5.2): progress notifications that all carry the request's
 * token, whose progress stays in 0..1 and never goes down, whose partials fit the method,
 * then exactly one final response and nothing after it. Log notifications may interleave.
 */
import { isRecord } from "../protocol/dotted-paths.js";
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import type { MethodName } from "./frame-types.js";
import { describeValue, problem, type FrameProblem } from "./problem.js";
import { schemaProblems } from "./schema-problems.js";
import { checkFrameAt, parseText } from "./validate-frame.js";

/** Which protocol `checkProgressStream` checks against. */
export interface ProgressStreamOptions<P extends ProtocolDescriptor = ProtocolDescriptor> {
  protocol: P;
  /** The streamed request: its id, method and `_meta.progressToken` are then expected. */
  request?: unknown;
  /** The method streamed, when `request` is not given: partials and the result are checked against it. */
  method?: MethodName<P>;
  /** The token every progress frame must carry (default: the request's, else the first frame's). */
  token?: string | number;
}

/** The verdict of `checkProgressStream`: ok, or the problems found. */
export type StreamCheck = { ok: true } | { ok: false; errors: FrameProblem[] };

/** Checks a recorded stream: one progress token, progress in 0..1 never going down, then exactly one response (§9). */
export function checkProgressStream<P extends ProtocolDescriptor = ProtocolDescriptor>(
  frames: readonly unknown[],
  options: ProgressStreamOptions<P>,
): StreamCheck {
  const { protocol } = options;
  const request = isRecord(options.request) ? options.request : undefined;
  const method = typeof request?.method === "string" ? request.method : options.method;
  const partial = method === undefined ? undefined : protocol.methods[method]?.partial;
  const progressMethod = methodWithRole(protocol, "progress");
  const requestToken =
    isRecord(request?.params) && isRecord(request.params._meta) ? request.params._meta.progressToken : undefined;
  let token = options.token ?? (requestToken as string | number | undefined);
  let tokenFrom = token === undefined ? undefined : "the request's";
  let previous: { index: number; progress: number } | undefined;
  let final: number | undefined;
  const errors: FrameProblem[] = [];
  frames.forEach((raw, index) => {
    const parsed = parseText(raw, [index]);
    if (parsed.problem) return void errors.push(parsed.problem);
    const frame = parsed.value;
    if (final !== undefined)
      return void errors.push(problem([index], `nothing after the final response [${final}] (§5.2)`, kindOf(frame)));
    const isResponse = isRecord(frame) && !("method" in frame) && ("result" in frame || "error" in frame);
    if (isResponse) {
      final = index;
      const checked = checkFrameAt(frame, [index], protocol, request === undefined ? { method } : { request });
      return void errors.push(...checked.errors);
    }
    if (!isRecord(frame) || "id" in frame || typeof frame.method !== "string")
      return void errors.push(problem([index], "a notification or the final response", kindOf(frame)));
    errors.push(...checkFrameAt(frame, [index], protocol, {}).errors);
    if (frame.method !== progressMethod || !isRecord(frame.params)) return;
    const params = frame.params;
    if (token === undefined) {
      token = params.progressToken as string | number;
      tokenFrom = `frame [${index}]'s`;
    } else if (params.progressToken !== token)
      errors.push(
        problem(
          [index, "params", "progressToken"],
          `${JSON.stringify(token)}, ${tokenFrom} token (§9)`,
          describeValue(params.progressToken),
        ),
      );
    const progress = params.progress;
    if (typeof progress === "number") {
      if (previous !== undefined && progress < previous.progress)
        errors.push(
          problem(
            [index, "params", "progress"],
            `at least ${previous.progress}, the progress of frame [${previous.index}] (progress never goes down)`,
            describeValue(progress),
          ),
        );
      previous = { index, progress: Math.max(progress, previous?.progress ?? progress) };
    }
    if (partial !== undefined && params.partial !== undefined)
      errors.push(...schemaProblems(partial, params.partial, [index, "params", "partial"]));
  });
  if (final === undefined) errors.push(problem([], "exactly one final response (§5.2, §9)", "none", "(stream)"));
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

function methodWithRole(protocol: ProtocolDescriptor, role: "progress"): string {
  return (
    Object.values(protocol.notifications).find((notification) => notification.role === role)?.method ??
    `${protocol.notificationPrefix}${role}`
  );
}

function kindOf(frame: unknown): string {
  if (!isRecord(frame)) return describeValue(frame);
  if (typeof frame.method === "string")
    return "id" in frame ? `a ${frame.method} request` : `a ${frame.method} notification`;
  return "error" in frame ? "an error response" : "a response";
}
