/**
 * Handler faults (§12, §13.1, §4.6): whatever a handler does — throw a non-error, reject,
 * return BigInt, a cycle or NaN, put BigInt in a progress partial, throw after yielding —
 * its request gets exactly one well-formed answer without internals, and the server keeps
 * serving. Checked over stdio and over HTTP, each against a real child process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningHttp, hardeningStdio, type HttpServerChild } from "./children.js";
import type { StdioChild } from "../runtime/server/helpers/stdio-child.js";
import type { RpcReply } from "./http-client.js";

const INTERNAL = { code: -32603, message: "Internal error" };

/** Method, and the answer its request must get. */
const faults: Array<[string, { result?: unknown; error?: unknown }]> = [
  ["x-harden/throw-string", { error: INTERNAL }],
  ["x-harden/throw-null-prototype", { error: INTERNAL }],
  ["x-harden/reject", { error: INTERNAL }],
  ["x-harden/reject-undefined", { error: INTERNAL }],
  ["x-harden/thenable-throws", { error: INTERNAL }],
  ["x-harden/then-getter-throws", { error: INTERNAL }],
  ["x-harden/bigint", { error: INTERNAL }],
  ["x-harden/bigint-async", { error: INTERNAL }],
  ["x-harden/cycle", { error: INTERNAL }],
  ["x-harden/throw-after-yield", { error: INTERNAL }],
  // §4.6: a non-finite value is never emitted; at the top level the sentinel is null.
  ["x-harden/nan", { result: null }],
  // The progress frame cannot be serialised, so the request fails instead of losing a frame.
  ["x-harden/bigint-partial", { error: INTERNAL }],
];

describe("handler faults over stdio (§12, §13.1)", () => {
  let child: StdioChild;
  beforeAll(async () => {
    child = await hardeningStdio();
  });
  afterAll(() => child.kill());

  it.each(faults)(
    "%s: exactly one well-formed answer, no internals, and the next request is served",
    async (method, expected) => {
      const id = `fault:${method}`;
      child.send({ jsonrpc: "2.0", id, method, params: { _meta: { progressToken: id } } });
      const answer = (await child.response(id)) as RpcReply;
      expect({ result: answer.result, error: answer.error }).toEqual({
        result: undefined,
        error: undefined,
        ...expected,
      });
      expect((await child.request("ping", { nonce: method }, `after:${method}`)).result).toEqual({ nonce: method });
      expect(child.responsesFor(id)).toHaveLength(1);
      expect(JSON.stringify(child.frames())).not.toMatch(/hunter2|secret|internals/);
      expect(child.lines().every((line) => JSON.parse(line) !== undefined)).toBe(true);
    },
  );

  it("the diagnostics of those faults go to stderr, one line each, never to stdout", async () => {
    await child.stderrIncludes("x-harden/cycle failed");
    expect(child.stderr).toContain("x-harden/bigint-async failed");
    expect(child.lines().join("\n")).not.toContain("failed");
  });
});

describe("handler faults over HTTP (§5.2, §12)", () => {
  let server: HttpServerChild;
  beforeAll(async () => {
    server = await hardeningHttp();
  });
  afterAll(() => server.stop());

  const post = (method: string, body: object, accept = "application/json") =>
    fetch(`${server.url}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept },
      body: JSON.stringify(body),
    });

  it.each(faults)("%s: HTTP 200 with one well-formed JSON-RPC answer, buffered", async (method, streamed) => {
    // A buffered response has no progress channel, so the BigInt partial is never serialised.
    const expected = method === "x-harden/bigint-partial" ? { result: { finished: true } } : streamed;
    const response = await post(method, { jsonrpc: "2.0", id: 7, method, params: { _meta: { progressToken: 7 } } });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer).toEqual({ jsonrpc: "2.0", id: 7, ...expected });
  });

  it.each(faults)("%s: over SSE the last frame is the one answer and the stream ends", async (method, expected) => {
    const response = await post(
      method,
      { jsonrpc: "2.0", id: 8, method, params: { _meta: { progressToken: 8 } } },
      "text/event-stream",
    );
    const frames = (await response.text())
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
    const answers = frames.filter((frame) => frame.method === undefined);
    expect(answers).toEqual([{ jsonrpc: "2.0", id: 8, ...expected }]);
    expect(frames.at(-1)).toBe(answers[0]);
  });

  it("the process is still up and serving after every fault", async () => {
    const response = await post("ping", { jsonrpc: "2.0", id: "alive", method: "ping" });
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: "alive", result: {} });
    expect(server.stderr()).toContain("x-harden/reject failed");
  });
});
