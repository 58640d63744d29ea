/**
 * validateFrame: one frame or batch checked against a protocol the way a person reads it.
 * The envelope is checked by hand (§4, §11), then each part against its own schema: a
 * request's params against its method's, a response's result against the method it answers
 * when that is known, a notification's params against its own. No part is checked through
 * the root schema's `if`/`anyOf` binding, whose failures are noise.
 */
import { isRecord } from "../protocol/dotted-paths.js";
import type { RequestId } from "../protocol/types.js";
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import type { FrameKind, MethodName, TypedFrame } from "./frame-types.js";
import { describeValue, problem, type FrameProblem, type PathSegment } from "./problem.js";
import { schemaProblems } from "./schema-problems.js";

/** Request ids in flight and the methods they called, as a Map or a plain record. */
export type PendingMethods = ReadonlyMap<RequestId, string> | Readonly<Record<string, string>>;

/** What a response answers, as far as a check knows: a method, the request itself, or the requests in flight. */
export interface FrameCheckOptions {
  /** The method a response answers: its result is checked against that method's result schema. */
  method?: string;
  /** The request (or batch) a response answers: ids must match, results fit their methods. */
  request?: unknown;
  /** Requests in flight: each response's id must be one of them, its result fit that method. */
  pending?: PendingMethods;
}

/** What `validateFrame` checks a frame against: the protocol (generated `protocol`), and what a response answers. */
export interface ValidateFrameOptions<P extends ProtocolDescriptor = ProtocolDescriptor> extends FrameCheckOptions {
  protocol: P;
  method?: MethodName<P>;
}

/** The verdict of `validateFrame`: the frame's kind and typed value, or the problems found. */
export type FrameCheck<P extends ProtocolDescriptor = ProtocolDescriptor> =
  | { ok: true; kind: FrameKind; frame: TypedFrame<P> }
  | { ok: false; kind: FrameKind | undefined; errors: FrameProblem[] };

/** Checks a frame (or its JSON text); errors are one readable line per problem. */
export function validateFrame<P extends ProtocolDescriptor = ProtocolDescriptor>(
  frame: unknown,
  options: ValidateFrameOptions<P>,
): FrameCheck<P> {
  const parsed = parseText(frame, []);
  if (parsed.problem) return { ok: false, kind: undefined, errors: [parsed.problem] };
  const { kind, errors } = checkFrameAt(parsed.value, [], options.protocol, options);
  return errors.length === 0
    ? { ok: true, kind: kind!, frame: parsed.value as TypedFrame<P> }
    : { ok: false, kind, errors };
}

/** The same check for a frame that sits at `root` of something larger (a recorded stream). */
export function checkFrameAt(
  value: unknown,
  root: readonly PathSegment[],
  protocol: ProtocolDescriptor,
  options: FrameCheckOptions,
): { kind: FrameKind | undefined; errors: FrameProblem[] } {
  const context: Context = { protocol, expected: expectations(options) };
  if (!Array.isArray(value)) return checkMessage(value, root, context);
  if (value.length === 0)
    return { kind: "batch", errors: [problem(root, "a non-empty batch (§11)", "an empty array")] };
  return {
    kind: "batch",
    errors: value.flatMap((member, index) => checkMessage(member, [...root, index], context).errors),
  };
}

interface Context {
  readonly protocol: ProtocolDescriptor;
  readonly expected: Expectations;
}

interface Expectations {
  /** The method every response answers (the `method` option). */
  readonly method?: string;
  /** id -> method of the requests responses may answer; undefined when anything goes. */
  readonly byId?: ReadonlyMap<RequestId, string | undefined>;
  /** A plain record's keys are strings, so its ids are compared as text. */
  readonly idsAsText?: boolean;
}

function expectations(options: FrameCheckOptions): Expectations {
  const { pending } = options;
  if (pending instanceof Map) return { method: options.method, byId: new Map(pending) };
  if (pending !== undefined)
    return {
      method: options.method,
      byId: new Map(Object.entries(pending as Record<string, string>)),
      idsAsText: true,
    };
  if (options.request !== undefined) {
    const requests = (Array.isArray(options.request) ? options.request : [options.request]).filter(isRecord);
    const byId = new Map<RequestId, string | undefined>();
    for (const request of requests)
      if (typeof request.id === "string" || typeof request.id === "number")
        byId.set(request.id, typeof request.method === "string" ? request.method : undefined);
    return { method: options.method, byId };
  }
  return { method: options.method };
}

/** A frame given as its JSON text (an NDJSON line, an SSE data payload) is parsed first. */
export function parseText(
  frame: unknown,
  root: readonly PathSegment[],
): { value: unknown; problem?: undefined } | { value?: undefined; problem: FrameProblem } {
  if (typeof frame !== "string") return { value: frame };
  try {
    const value: unknown = JSON.parse(frame);
    if (typeof value === "object" && value !== null) return { value };
    return { problem: problem(root, "a JSON-RPC object or batch", describeValue(value)) };
  } catch {
    return { problem: problem(root, "JSON text", "text that is not JSON") };
  }
}

function checkMessage(
  message: unknown,
  root: readonly PathSegment[],
  context: Context,
): { kind: FrameKind | undefined; errors: FrameProblem[] } {
  if (!isRecord(message))
    return { kind: undefined, errors: [problem(root, "a JSON-RPC object", describeValue(message))] };
  const errors: FrameProblem[] = [];
  if (message.jsonrpc !== "2.0") errors.push(problem([...root, "jsonrpc"], '"2.0"', describeValue(message.jsonrpc)));
  if ("method" in message) {
    const kind = "id" in message ? "request" : "notification";
    errors.push(...(kind === "request" ? checkRequest : checkNotification)(message, root, context));
    return { kind, errors };
  }
  const hasResult = "result" in message;
  const hasError = "error" in message;
  if (hasResult && hasError) {
    errors.push(problem(root, "either result or error (§4.2, §4.3)", "both"));
    return { kind: undefined, errors };
  }
  if (!hasResult && !hasError) {
    errors.push(problem(root, "a request (method) or a response (result or error)", "an object with neither"));
    return { kind: undefined, errors };
  }
  errors.push(...(hasResult ? checkResult : checkError)(message, root, context));
  return { kind: hasResult ? "result" : "error", errors };
}

function checkRequest(
  message: Record<string, unknown>,
  root: readonly PathSegment[],
  context: Context,
): FrameProblem[] {
  const { protocol } = context;
  const errors: FrameProblem[] = [];
  if (!isId(message.id)) errors.push(problem([...root, "id"], "a string or number (§4.7)", describeValue(message.id)));
  const method = message.method;
  if (typeof method !== "string" || method === "")
    return [...errors, problem([...root, "method"], "a method name", describeValue(method))];
  const descriptor = protocol.methods[method];
  if (descriptor === undefined) {
    if (protocol.notifications[method] !== undefined)
      return [
        ...errors,
        problem([...root, "id"], `no id: ${method} is a notification (§4.5)`, describeValue(message.id)),
      ];
    return [...errors, unknownName([...root, "method"], method, Object.keys(protocol.methods), "a method")];
  }
  return [...errors, ...checkParams(message, root, descriptor.params)];
}

function checkNotification(
  message: Record<string, unknown>,
  root: readonly PathSegment[],
  context: Context,
): FrameProblem[] {
  const { protocol } = context;
  const method = message.method;
  if (typeof method !== "string" || method === "")
    return [problem([...root, "method"], "a notification name", describeValue(method))];
  const descriptor = protocol.notifications[method];
  if (descriptor !== undefined) return checkParams(message, root, descriptor.params);
  if (protocol.methods[method] !== undefined)
    return [
      problem(
        [...root, "id"],
        `an id: ${method} is a request, and a frame without one is never answered (§4.5)`,
        "nothing",
      ),
    ];
  return [unknownName([...root, "method"], method, Object.keys(protocol.notifications), "a notification")];
}

function checkParams(
  message: Record<string, unknown>,
  root: readonly PathSegment[],
  validator: ProtocolDescriptor["methods"][string]["params"],
): FrameProblem[] {
  const params = message.params ?? {};
  if (!isRecord(params)) return [problem([...root, "params"], "an object (§4.1)", describeValue(params))];
  return schemaProblems(validator, params, [...root, "params"]);
}

function checkResult(message: Record<string, unknown>, root: readonly PathSegment[], context: Context): FrameProblem[] {
  const errors = checkResponseId(message, root, context, false);
  const result = message.result;
  if (!isRecord(result)) return [...errors, problem([...root, "result"], "an object (§4.2)", describeValue(result))];
  const method = answeredMethod(message.id, context);
  if (method === undefined) return errors;
  // A method the protocol does not define has no result schema to check against.
  const descriptor = context.protocol.methods[method];
  if (descriptor === undefined) return errors;
  return [...errors, ...schemaProblems(descriptor.result, result, [...root, "result"])];
}

function checkError(message: Record<string, unknown>, root: readonly PathSegment[], context: Context): FrameProblem[] {
  const errors = checkResponseId(message, root, context, true);
  const error = message.error;
  if (!isRecord(error)) return [...errors, problem([...root, "error"], "an error object (§12)", describeValue(error))];
  if (!Number.isInteger(error.code))
    errors.push(problem([...root, "error", "code"], "an integer (§12)", describeValue(error.code)));
  if (typeof error.message !== "string")
    errors.push(problem([...root, "error", "message"], "a string (§12)", describeValue(error.message)));
  return errors;
}

/** The id must echo a known request's, with the same JSON type (§4.7); null only on an error. */
function checkResponseId(
  message: Record<string, unknown>,
  root: readonly PathSegment[],
  context: Context,
  isError: boolean,
): FrameProblem[] {
  const id = message.id;
  const path = [...root, "id"];
  if (id === null && isError) return [];
  if (!isId(id))
    return [
      problem(path, isError ? "a string, number or null (§4.3)" : "a string or number (§4.7)", describeValue(id)),
    ];
  const { byId } = context.expected;
  if (byId === undefined || byId.has(pendingKey(id, context))) return [];
  const known = [...byId.keys()];
  const expected =
    known.length === 1
      ? `${JSON.stringify(known[0])}, the id of the request (§4.7)`
      : `the id of a request in flight (${known.map((key) => JSON.stringify(key)).join(", ") || "none"})`;
  return [problem(path, expected, describeValue(id))];
}

function answeredMethod(id: unknown, context: Context): string | undefined {
  const { byId, method } = context.expected;
  return (isId(id) ? byId?.get(pendingKey(id, context)) : undefined) ?? method;
}

function pendingKey(id: RequestId, context: Context): RequestId {
  return context.expected.idsAsText ? String(id) : id;
}

function unknownName(path: readonly PathSegment[], name: string, known: readonly string[], what: string): FrameProblem {
  const near = known.find((candidate) => editDistance(candidate, name) <= 2);
  const hint = near === undefined ? "" : ` (did you mean ${JSON.stringify(near)}?)`;
  return problem(path, `${what} of the protocol`, `${JSON.stringify(name)}, which it does not define${hint}`);
}

/** Levenshtein distance, for "did you mean" on method names (short strings). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}
