/** Envelope checks (§4.1), batches (§11), concurrency (§4.7) and the params pipeline (§7.7, §8, §12) over stdio. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonObject } from "../../../runtime/src/protocol/types.js";
import { StdioChild, type Frame } from "./helpers/stdio-child.js";

let child: StdioChild;
let nextId = 0;
beforeAll(async () => {
  child = await StdioChild.initialized({ limits: { maxBatchSize: 4 } });
});
afterAll(() => child.kill());

/** What the fixture's retrieve handler answers (the one result these tests read into): its params and degradations. */
interface RetrieveEcho {
  hits: unknown[];
  params: JsonObject;
  degraded: string[];
}

const call = (method: string, params?: object) => child.request<RetrieveEcho>(method, params, `r${++nextId}`);

/** Sends each message and returns the error codes of the id-null responses they produced, in order. */
async function nullIdCodes(...messages: unknown[]): Promise<number[]> {
  const before = child.responsesFor(null).length;
  for (const message of messages) child.send(message);
  await child.next(() => child.responsesFor(null).length >= before + messages.length);
  return child
    .responsesFor(null)
    .slice(before)
    .map((frame) => frame.error.code);
}

describe("JSON-RPC envelope (§4.1)", () => {
  it.each([
    ["jsonrpc missing", { id: "e1", method: "ping" }, "e1", -32600],
    ["jsonrpc 1.0", { jsonrpc: "1.0", id: "e2", method: "ping" }, "e2", -32600],
    ["method not a string", { jsonrpc: "2.0", id: "e3", method: 5 }, "e3", -32600],
    ["params a string", { jsonrpc: "2.0", id: "e4", method: "ping", params: "x" }, "e4", -32600],
    ["params an array (positional)", { jsonrpc: "2.0", id: "e5", method: "ping", params: [1] }, "e5", -32602],
  ])("%s is answered with the right code and the request id", async (_name, message, id, code) => {
    child.send(message);
    expect((await child.response(id)).error.code).toBe(code);
  });

  it("§4.7 an id that is null or an object is -32600 with id null", async () => {
    const codes = await nullIdCodes(
      { jsonrpc: "2.0", id: null, method: "ping" },
      { jsonrpc: "2.0", id: { a: 1 }, method: "ping" },
    );
    expect(codes).toEqual([-32600, -32600]);
  });

  it("invalid JSON is -32700 with id null, and the connection goes on", async () => {
    expect(await nullIdCodes('{"jsonrpc":"2.0","id":')).toEqual([-32700]);
    expect((await call("ping")).result).toEqual({});
  });
});

describe("batches (§11)", () => {
  it("answers each request member once, none for notifications, -32600 with id null for a malformed member", async () => {
    child.send([
      { jsonrpc: "2.0", id: "b1", method: "ping", params: { nonce: 1 } },
      { jsonrpc: "2.0", method: "notifications/cancel", params: { id: "zzz" } },
      { jsonrpc: "2.0", id: "b2", method: "x-test/sleep", params: { ms: 20 } },
      "not a request",
    ]);
    const batch = await child.next((frame) => Array.isArray(frame));
    const members = batch as unknown as Frame[];
    expect(members).toHaveLength(3);
    expect(members.find((m) => m.id === "b1")!.result).toEqual({ nonce: 1 });
    expect(members.find((m) => m.id === "b2")!.result).toEqual({ slept: 20 });
    expect(members.find((m) => m.id === null)!.error.code).toBe(-32600);
  });

  it("an empty array is a single -32600 with id null; an oversized batch is -32013", async () => {
    const oversized = Array.from({ length: 5 }, (_, i) => ({ jsonrpc: "2.0", id: `big${i}`, method: "ping" }));
    expect(await nullIdCodes([], oversized)).toEqual([-32600, -32013]);
  });

  it("a batch of only notifications produces no line at all", async () => {
    const linesBefore = child.lines().length;
    child.send([{ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 1 } }]);
    await call("ping");
    expect(child.lines().length).toBe(linesBefore + 1);
  });
});

describe("concurrency (§4.7)", () => {
  it("a slow request does not block a fast one on the same connection", async () => {
    child.send({ jsonrpc: "2.0", id: "slow", method: "x-test/sleep", params: { ms: 400 } });
    child.send({ jsonrpc: "2.0", id: "fast", method: "x-test/echo", params: {} });
    await child.response("slow");
    const order = child.frames().map((frame) => frame.id);
    expect(order.indexOf("fast")).toBeLessThan(order.indexOf("slow"));
  });

  it("§4.7 a second request reusing an id still in flight is -32600; the first is answered normally", async () => {
    child.send({ jsonrpc: "2.0", id: "dup", method: "x-test/sleep", params: { ms: 150 } });
    child.send({ jsonrpc: "2.0", id: "dup", method: "x-test/sleep", params: { ms: 1 } });
    await child.next(() => child.responsesFor("dup").length === 2);
    expect(child.responsesFor("dup").map((frame) => frame.error?.code ?? "ok")).toEqual([-32600, "ok"]);
  });
});

describe("params pipeline", () => {
  it("§12.1 schema errors are -32602 with error.data.field as a dotted path", async () => {
    const nested = await call("retrieve", { query: "q", rerank: { topN: 0 } });
    expect(nested.error).toMatchObject({ code: -32602, data: { field: "rerank.topN" } });
    const missing = await call("retrieve", { k: 3 });
    expect(missing.error).toMatchObject({ code: -32602, data: { field: "query" } });
    const wrongType = await call("retrieve", { query: 5 });
    expect(wrongType.error.data).toMatchObject({ field: "query" });
  });

  it("§7.3 a legacy alias is copied to its canonical name", async () => {
    const reply = await call("retrieve", { q: "from alias" });
    expect(reply.result.params.query).toBe("from alias");
  });

  it("§12 -32005 for an unadvertised option, with error.data.option", async () => {
    const mode = await call("retrieve", { query: "q", mode: "sparse" });
    expect(mode.error).toMatchObject({ code: -32005, data: { option: "mode", value: "sparse" } });
    const mmr = await call("retrieve", { query: "q", mmr: { lambda: 0.5 } });
    expect(mmr.error).toMatchObject({ code: -32005, data: { option: "mmr" } });
    const defaulted = await call("retrieve", { query: "q", unit: "passage" });
    expect(defaulted.result.hits).toEqual([]);
  });

  it("§7.7 strict:false drops an unsupported option and records it in ctx.degraded", async () => {
    const reply = await call("retrieve", { query: "q", mode: "sparse", mmr: true, strict: false });
    expect(reply.result.degraded).toEqual(["mode", "mmr"]);
    expect(reply.result.params).not.toHaveProperty("mode");
  });

  it("§12 k above maxK is clamped, never an error", async () => {
    expect((await call("retrieve", { query: "q", k: 500 })).result.params.k).toBe(50);
  });

  it("§3.3 a funnel that widens is -32602 naming the offending param", async () => {
    const reply = await call("retrieve", { query: "q", candidateK: 10, rerank: { topN: 20 }, k: 5 });
    expect(reply.error).toMatchObject({ code: -32602, data: { field: "rerank.topN" } });
  });

  it("§8 filters: unadvertised field, mistyped value, empty and -> -32602; unadvertised operator -> -32005", async () => {
    const filter = (tree: object) => call("retrieve", { query: "q", filter: tree });
    expect((await filter({ field: "author", op: "eq", value: "x" })).error.data).toMatchObject({
      field: "filter.author",
    });
    expect((await filter({ field: "year", op: "gte", value: "2020" })).error.data).toMatchObject({
      field: "filter.year",
    });
    expect((await filter({ and: [] })).error).toMatchObject({ code: -32602, data: { field: "filter.and" } });
    expect((await filter({ field: "lang", op: "ne", value: "en" })).error).toMatchObject({
      code: -32005,
      data: { option: "filter.op", value: "ne" },
    });
    const nested = {
      and: [
        { field: "lang", op: "eq", value: "en" },
        { or: [{ field: "year", op: "gte", value: 2023 }, { not: { field: "title", op: "contains", value: "x" } }] },
      ],
    };
    expect((await filter(nested)).result.params.filter).toEqual(nested);
  });

  it("§17.1 an invalid request _meta.logLevel is -32602 naming _meta.logLevel", async () => {
    const reply = await call("x-test/echo", { _meta: { logLevel: "shouting" } });
    expect(reply.error).toMatchObject({ code: -32602, data: { field: "_meta.logLevel" } });
  });
});

describe("results and failures (§12, §4.6)", () => {
  it("an unexpected exception is -32603 'Internal error' without internals; stderr gets one line", async () => {
    const reply = await call("x-test/crash");
    expect(reply.error).toEqual({ code: -32603, message: "Internal error" });
    expect(JSON.stringify(reply)).not.toContain("hunter2");
    await child.stderrIncludes("x-test/crash failed");
  });

  it("a malformed result is -32603 and one stderr line names the method", async () => {
    expect((await call("x-test/malformed")).error.code).toBe(-32603);
    await child.stderrIncludes("x-test/malformed handler returned a malformed result");
  });

  it("§4.6 NaN and Infinity never reach the wire: members omitted, array elements become 0", async () => {
    const reply = await call("x-test/non-finite");
    expect(reply.result).toEqual({ nested: { ok: 1 }, list: [1, 0, 3] });
  });
});
