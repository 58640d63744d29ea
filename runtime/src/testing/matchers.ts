/**
 * The RCP matchers as plain functions in the `expect.extend` shape that vitest and jest
 * share: `{ pass, message }`, the message listing one problem per line. They are made for one
 * protocol (`rcpMatchers(protocol)`), which every check of theirs reads.
 */
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import type { FrameKind } from "./frame-types.js";
import type { FrameProblem } from "./problem.js";
import { checkProgressStream, type ProgressStreamOptions } from "./progress-stream.js";
import { validateFrame, type FrameCheckOptions, type ValidateFrameOptions } from "./validate-frame.js";

/** A matcher's verdict in the shape `expect.extend` wants. */
export interface MatcherOutcome {
  pass: boolean;
  /** Explains the verdict, one line per problem. */
  message: () => string;
}

/** What `toBeRcpError` also checks. */
export interface ErrorMatcherOptions {
  /** The dotted params path `error.data.field` must name (§12.1). */
  field?: string;
}

/** What `toBeWellFormedProgressStream` checks the stream against, besides the protocol. */
export type StreamMatcherOptions = Omit<ProgressStreamOptions, "protocol">;

const kindNames: Readonly<Record<FrameKind, string>> = {
  request: "a request",
  notification: "a notification",
  result: "a result response",
  error: "an error response",
  batch: "a batch",
};

/** The RCP matchers checking frames against `protocol`, for vitest's (or jest's) `expect.extend`. */
export function rcpMatchers(protocol: ProtocolDescriptor) {
  return {
    /** A valid RCP frame or batch; options say which request a response answers. */
    toBeValidRcpFrame(received: unknown, options: FrameCheckOptions = {}): MatcherOutcome {
      const check = validateFrame(received, { ...options, protocol });
      if (!check.ok) return failed("a valid RCP frame", check.errors);
      return passed(`not a valid RCP frame, but it is ${kindNames[check.kind]}`);
    },

    /** A valid request (of `method`, when given), its params checked against the method's schema. */
    toBeRcpRequest(received: unknown, method?: string, options: FrameCheckOptions = {}): MatcherOutcome {
      const wanted = method === undefined ? "a request" : `a ${method} request`;
      return expectKind(received, "request", wanted, { ...options, protocol }, method);
    },

    /** A valid success response; with `method`, its result fits that method's result schema. */
    toBeRcpResult(received: unknown, method?: string, options: FrameCheckOptions = {}): MatcherOutcome {
      if (method === undefined) return expectKind(received, "result", "a result response", { ...options, protocol });
      return expectKind(received, "result", `a result response to ${method}`, { ...options, method, protocol });
    },

    /** A valid error response, with `code` and `error.data.field` when given. */
    toBeRcpError(received: unknown, code?: number, options: ErrorMatcherOptions = {}): MatcherOutcome {
      const wanted = code === undefined ? "an error response" : `an error response ${describeCode(code, protocol)}`;
      const shaped = expectKind(received, "error", wanted, { protocol });
      if (!shaped.pass) return shaped;
      const error = (received as { error: { code: number; data?: unknown } }).error;
      const problems: string[] = [];
      if (code !== undefined && error.code !== code)
        problems.push(
          `error.code: expected ${describeCode(code, protocol)}, found ${describeCode(error.code, protocol)}`,
        );
      if (options.field !== undefined) {
        const field =
          typeof error.data === "object" && error.data !== null ? (error.data as { field?: unknown }).field : undefined;
        if (field !== options.field)
          problems.push(
            `error.data.field: expected ${JSON.stringify(options.field)}, found ${field === undefined ? "nothing" : JSON.stringify(field)}`,
          );
      }
      if (problems.length > 0)
        return { pass: false, message: () => [`expected ${wanted}:`, ...problems.map(indent)].join("\n") };
      return passed(`not ${wanted}, but it is one`);
    },

    /** Recorded frames of one streamed call: progress with one token, never going down, then one final response. */
    toBeWellFormedProgressStream(received: unknown, options: StreamMatcherOptions = {}): MatcherOutcome {
      if (!Array.isArray(received))
        return {
          pass: false,
          message: () => "expected a recorded stream (an array of frames), found " + typeof received,
        };
      const check = checkProgressStream(received, { ...options, protocol });
      if (!check.ok) return failed("a well-formed progress stream", check.errors);
      return passed(`not a well-formed progress stream, but it is one (${received.length} frames)`);
    },
  };
}

/** A valid frame of `kind` (and of `method`, for a request); `wanted` is how failures name it. */
function expectKind(
  received: unknown,
  kind: FrameKind,
  wanted: string,
  options: ValidateFrameOptions,
  method?: string,
): MatcherOutcome {
  const check = validateFrame(received, options);
  if (!check.ok) return failed(wanted, check.errors);
  if (check.kind !== kind) return { pass: false, message: () => `expected ${wanted}, found ${kindNames[check.kind]}` };
  const found = (received as { method?: unknown }).method;
  if (method !== undefined && found !== method)
    return { pass: false, message: () => `expected ${wanted}, found a ${String(found)} request` };
  return passed(`not ${wanted}, but it is one`);
}

function describeCode(code: number, protocol: ProtocolDescriptor): string {
  const symbol = protocol.errors[code]?.symbol;
  return symbol === undefined ? String(code) : `${code} (${symbol})`;
}

function failed(wanted: string, problems: readonly FrameProblem[]): MatcherOutcome {
  return {
    pass: false,
    message: () => [`expected ${wanted}:`, ...problems.map((entry) => indent(entry.message))].join("\n"),
  };
}

/** The message a `.not` assertion shows when the matcher passed. */
function passed(notMessage: string): MatcherOutcome {
  return { pass: true, message: () => `expected ${notMessage}` };
}

function indent(line: string): string {
  return `  ${line}`;
}
