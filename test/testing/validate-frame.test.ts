/**
 * validateFrame against a fixed list of broken frames: each yields the lines a person would
 * write (path, expected, found), with the noise of oneOf/anyOf/if branches collapsed to the
 * branch that was meant, and responses checked against the method they answer.
 */
import { describe, expect, it } from "vitest";
import { protocol } from "../../generated/methods.js";
import {
  checkProgressStream,
  isRequest,
  isResult,
  validateFrame,
  type ValidateFrameOptions,
} from "@rcp-gen/runtime/testing";

const request = (params: unknown, method = "retrieve", id: unknown = 1) => ({ jsonrpc: "2.0", id, method, params });
const retrieve = (params: object) => request({ query: "attention", k: 3, ...params });
const messages = (frame: unknown, options: Omit<ValidateFrameOptions<typeof protocol>, "protocol"> = {}): string[] => {
  const check = validateFrame(frame, { protocol, ...options });
  return check.ok ? [] : check.errors.map((problem) => problem.message);
};

const brokenFrames: ReadonlyArray<readonly [string, unknown, string[]]> = [
  ["a wrong type", retrieve({ k: "two" }), ['params.k: expected an integer, found "two"']],
  ["a missing required param", request({ k: 1 }), ["params.query: expected a value (required), found nothing"]],
  [
    "a value of no alternative's kind (string | Content | Content[])",
    retrieve({ query: 5 }),
    ["params.query: expected a string, an object or an array, found 5"],
  ],
  [
    "a Content block missing its text: the object branch was meant",
    retrieve({ query: { type: "text" } }),
    ["params.query.text: expected a value (required), found nothing"],
  ],
  [
    "an image block with neither data nor uri",
    retrieve({ query: { type: "image", mimeType: "image/png" } }),
    ['params.query: expected a member "data" or "uri", found neither'],
  ],
  [
    "an unknown block type, without the demands of the branch a patch would pick",
    retrieve({ query: { type: "video" } }),
    ['params.query.type: expected one of "text", "image", "audio", "blob", found "video"'],
  ],
  [
    "a bad block inside an array of blocks",
    retrieve({ query: [{ type: "text" }] }),
    ["params.query[0].text: expected a value (required), found nothing"],
  ],
  [
    "rerank settings without a method (object | false)",
    retrieve({ rerank: { topN: 3 } }),
    ["params.rerank.method: expected a value (required), found nothing"],
  ],
  [
    "a filter clause without its value (if/then)",
    retrieve({ filter: { field: "lang", op: "eq" } }),
    ["params.filter.value: expected a value (required), found nothing"],
  ],
  [
    "an unknown operator deep in a filter tree",
    retrieve({ filter: { and: [{ field: "lang", op: "like", value: "en" }] } }),
    [
      'params.filter.and[0].op: expected one of "eq", "ne", "gt", "gte", "lt", "lte", "in", "nin", "contains", "exists", found "like"',
    ],
  ],
  [
    "three independent problems, one line each",
    retrieve({ k: "two", mode: "fast", candidateK: -3 }),
    [
      'params.k: expected an integer, found "two"',
      'params.mode: expected one of "dense", "sparse", "hybrid", found "fast"',
      "params.candidateK: expected a number >= 0, found -3",
    ],
  ],
  [
    "an unknown method, with the near miss",
    request({ query: "x", k: 1 }, "retreive"),
    [
      'method: expected a method of the protocol, found "retreive", which it does not define (did you mean "retrieve"?)',
    ],
  ],
  ["positional params", request(["attention", 3]), ["params: expected an object (§4.1), found an array of 2 items"]],
  [
    "a null id and an old jsonrpc",
    { jsonrpc: "1.0", id: null, method: "ping" },
    ['jsonrpc: expected "2.0", found "1.0"', "id: expected a string or number (§4.7), found null"],
  ],
  [
    "a notification sent with an id",
    request({ id: 7 }, "notifications/cancel", 3),
    ["id: expected no id: notifications/cancel is a notification (§4.5), found 3"],
  ],
  [
    "a request sent without an id",
    { jsonrpc: "2.0", method: "retrieve", params: { query: "x", k: 1 } },
    ["id: expected an id: retrieve is a request, and a frame without one is never answered (§4.5), found nothing"],
  ],
  [
    "a progress notification without its token and out of range",
    { jsonrpc: "2.0", method: "notifications/progress", params: { progress: 2 } },
    [
      "params.progressToken: expected a value (required), found nothing",
      "params.progress: expected a number <= 1, found 2",
    ],
  ],
  [
    "a response with both result and error",
    { jsonrpc: "2.0", id: 1, result: {}, error: { code: -32603, message: "x" } },
    ["(frame): expected either result or error (§4.2, §4.3), found both"],
  ],
  [
    "a malformed error object",
    { jsonrpc: "2.0", id: 1, error: { code: "-32602" } },
    ['error.code: expected an integer (§12), found "-32602"', "error.message: expected a string (§12), found nothing"],
  ],
  ["an empty batch", [], ["(frame): expected a non-empty batch (§11), found an empty array"]],
  [
    "a batch: each member's problems under its index",
    [retrieve({}), retrieve({ k: -1 }), { jsonrpc: "2.0" }],
    [
      "[1].params.k: expected a number >= 0, found -1",
      "[2]: expected a request (method) or a response (result or error), found an object with neither",
    ],
  ],
  ["not JSON", '{"jsonrpc":"2.0",', ["(frame): expected JSON text, found text that is not JSON"]],
];

describe("validateFrame reports broken frames as one readable line per problem", () => {
  it.each(brokenFrames)("%s", (_title, frame, expected) => {
    expect(messages(frame)).toEqual(expected);
  });

  it("accepts valid frames of every kind, and JSON text", () => {
    for (const frame of [
      retrieve({ mode: "hybrid", rerank: false, filter: { and: [{ field: "lang", op: "in", value: ["en"] }] } }),
      { jsonrpc: "2.0", method: "notifications/cancel", params: { id: 1 } },
      { jsonrpc: "2.0", id: "a", result: { nonce: "a" } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      [retrieve({}), { jsonrpc: "2.0", method: "notifications/log", params: { level: "info" } }],
      JSON.stringify(retrieve({})),
    ])
      expect(messages(frame)).toEqual([]);
    expect(validateFrame(retrieve({}), { protocol })).toMatchObject({ ok: true, kind: "request" });
  });
});

describe("responses are checked against the method they answer", () => {
  const wrongResult = { jsonrpc: "2.0", id: 1, result: { hits: "not-an-array" } };

  it("passes the envelope alone when the method is unknown, and checks the result when it is known", () => {
    expect(messages(wrongResult)).toEqual([]);
    expect(messages(wrongResult, { method: "retrieve" })).toEqual([
      'result.hits: expected an array, found "not-an-array"',
    ]);
    expect(
      messages({ jsonrpc: "2.0", id: 1, result: { hits: [{ id: "a", score: "high" }] } }, { method: "retrieve" }),
    ).toEqual(['result.hits[0].score: expected a number, found "high"']);
  });

  it("takes the method from the request, whose id the response must echo with the same type (§4.7)", () => {
    expect(messages(wrongResult, { request: retrieve({}) })).toEqual([
      'result.hits: expected an array, found "not-an-array"',
    ]);
    expect(messages({ jsonrpc: "2.0", id: "1", result: { hits: [] } }, { request: retrieve({}) })).toEqual([
      'id: expected 1, the id of the request (§4.7), found "1"',
    ]);
  });

  it("takes it from a map of pending requests, for a batch of responses", () => {
    const pending = new Map<string | number, string>([
      [1, "retrieve"],
      ["p", "ping"],
    ]);
    const batch = [wrongResult, { jsonrpc: "2.0", id: "p", result: {} }, { jsonrpc: "2.0", id: 9, result: {} }];
    expect(messages(batch, { pending })).toEqual([
      '[0].result.hits: expected an array, found "not-an-array"',
      '[2].id: expected the id of a request in flight (1, "p"), found 9',
    ]);
    expect(messages(batch.slice(0, 2), { pending: { 1: "retrieve", p: "ping" } })).toEqual([
      '[0].result.hits: expected an array, found "not-an-array"',
    ]);
  });
});

describe("type guards", () => {
  it("narrow to the method's params and result types, and only for valid frames", () => {
    const received: unknown = retrieve({ mode: "dense" });
    if (!isRequest(received, { protocol, method: "retrieve" })) throw new Error("a valid retrieve request was refused");
    // Compiles only because the guard narrowed params to RetrieveParams.
    const mode: "dense" | "sparse" | "hybrid" | undefined = received.params?.mode;
    expect(mode).toBe("dense");
    const answer: unknown = { jsonrpc: "2.0", id: 1, result: { hits: [{ id: "doc-1", score: 2 }] } };
    expect(isResult(answer, { protocol, method: "retrieve" }) && answer.result.hits[0]?.score).toBe(2);
    expect(isResult({ jsonrpc: "2.0", id: 1, result: { hits: "x" } }, { protocol, method: "retrieve" })).toBe(false);
    expect(isRequest(retrieve({ k: "two" }), { protocol, method: "retrieve" })).toBe(false);
    expect(isRequest(retrieve({}), { protocol, method: "ping" })).toBe(false);
    expect(isRequest(retrieve({}), { protocol })).toBe(true);
    expect(isRequest(JSON.stringify(retrieve({})), { protocol, method: "retrieve" })).toBe(false);
  });
});

describe("checkProgressStream (§9, §5.2)", () => {
  const call = retrieve({ _meta: { progressToken: "t1" } });
  const progress = (value: number, params: object = {}) => ({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "t1", progress: value, ...params },
  });
  const final = { jsonrpc: "2.0", id: 1, result: { hits: [] } };

  it("accepts progress with one token that never goes down, a log between, then one final response", () => {
    const log = { jsonrpc: "2.0", method: "notifications/log", params: { level: "info", message: "recall" } };
    expect(
      checkProgressStream([progress(0.2), log, progress(0.2), progress(0.9), final], { protocol, request: call }),
    ).toEqual({
      ok: true,
    });
  });

  it("names every fault: another token, progress going down, a bad partial, frames after the final response", () => {
    const check = checkProgressStream(
      [
        progress(0.5),
        progress(0.3, { progressToken: "t2" }),
        progress(0.6, { partial: { hits: 3 } }),
        final,
        progress(1),
      ],
      { protocol, request: call },
    );
    expect(check.ok ? [] : check.errors.map((problem) => problem.message)).toEqual([
      '[1].params.progressToken: expected "t1", the request\'s token (§9), found "t2"',
      "[1].params.progress: expected at least 0.5, the progress of frame [0] (progress never goes down), found 0.3",
      "[2].params.partial.hits: expected an array, found 3",
      "[4]: expected nothing after the final response [3] (§5.2), found a notifications/progress notification",
    ]);
  });

  it("requires the final response, and checks it against the request", () => {
    const missing = checkProgressStream([progress(0.1)], { protocol, request: call });
    expect(missing.ok ? [] : missing.errors.map((problem) => problem.message)).toEqual([
      "(stream): expected exactly one final response (§5.2, §9), found none",
    ]);
    const wrong = checkProgressStream([{ jsonrpc: "2.0", id: 2, result: { hits: 1 } }], { protocol, request: call });
    expect(wrong.ok ? [] : wrong.errors.map((problem) => problem.message)).toEqual([
      "[0].id: expected 1, the id of the request (§4.7), found 2",
    ]);
  });
});
