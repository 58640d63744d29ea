/**
 * The model the fuzzer checks the server against, from JSON-RPC 2.0 and RCP/1 alone: which
 * answers one message must produce. A member with a string or number id is answered exactly
 * once with that id (§4.7, §13.1); a notification never (§4.5); unparseable text, a value
 * that is not a request object, a bad id, an empty or oversized batch get one answer with
 * id null (§11, §12).
 */

export interface Expected {
  /** JSON text of each id -> how many answers must carry it. */
  ids: Map<string, number>;
  /** Answers with id null. */
  nulls: number;
  /** The answer is one array (a batch), as opposed to one object or nothing. */
  batch: boolean;
  /** The text was not JSON at all. */
  unparseable: boolean;
  /** A single object with an id: over HTTP it may be answered as an SSE stream (§5.2). */
  streamable: boolean;
}

export interface OracleLimits {
  maxBatchSize: number;
}

/** Parses `text` as the server will and predicts its answers; `undefined` text means nothing at all. */
export function expectAnswers(text: string | undefined, limits: OracleLimits): Expected {
  const expected: Expected = { ids: new Map(), nulls: 0, batch: false, unparseable: false, streamable: false };
  if (text === undefined) return expected;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    expected.unparseable = true;
    expected.nulls = 1;
    return expected;
  }
  if (!Array.isArray(message)) {
    countMember(message, expected);
    expected.streamable =
      typeof message === "object" && message !== null && (message as { id?: unknown }).id !== undefined;
    return expected;
  }
  if (message.length === 0 || message.length > limits.maxBatchSize) {
    expected.nulls = 1;
    return expected;
  }
  for (const member of message) countMember(member, expected);
  expected.batch = expected.nulls + expected.ids.size > 0;
  return expected;
}

function countMember(member: unknown, expected: Expected): void {
  if (typeof member !== "object" || member === null || Array.isArray(member)) {
    expected.nulls++;
    return;
  }
  if (!("id" in member) || (member as { id?: unknown }).id === undefined) return;
  const id = member.id;
  if (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) {
    const key = JSON.stringify(id);
    expected.ids.set(key, (expected.ids.get(key) ?? 0) + 1);
  } else expected.nulls++;
}

/** The text of one NDJSON line as the server's reader sees it (§5.1): undefined when it is skipped. */
export function ndjsonLineText(bytes: Buffer): string | undefined {
  const line = bytes.at(-1) === 0x0d ? bytes.subarray(0, -1) : bytes;
  const text = line.toString("utf8");
  return /^[ \t\r]*$/.test(text) ? undefined : text;
}

/** Adds `more` into `total`. */
export function mergeExpected(total: Expected, more: Expected): void {
  total.nulls += more.nulls;
  for (const [id, count] of more.ids) total.ids.set(id, (total.ids.get(id) ?? 0) + count);
}

/** Problems with one answer object's shape (JSON-RPC 2.0 §5): empty when it is well-formed. */
export function responseProblems(answer: unknown): string[] {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return ["an answer is not an object"];
  const frame = answer as Record<string, unknown>;
  const problems: string[] = [];
  if (frame.jsonrpc !== "2.0") problems.push('jsonrpc is not "2.0"');
  if (!("id" in frame)) problems.push("no id");
  if ("result" in frame === "error" in frame) problems.push("not exactly one of result and error");
  if ("error" in frame) {
    const error = frame.error as { code?: unknown; message?: unknown } | null;
    if (!Number.isInteger(error?.code) || typeof error?.message !== "string") problems.push("malformed error object");
    if (error?.code === -32603 && JSON.stringify(frame).match(/hunter2|secret|internals/))
      problems.push("internals leaked");
  }
  return problems;
}
