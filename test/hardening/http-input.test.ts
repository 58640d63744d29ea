/**
 * Hostile input over HTTP (§5.2, §4.1, §11, §15.5), against the hardening server listening on
 * 127.0.0.1 in a child process: precise errors with the right status, no stack overflow, an
 * oversized body refused without being buffered, stalled bodies timed out, prototype keys inert.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningHttp, type HttpServerChild } from "./children.js";
import { postJson, postOnce, rawExchange, parseReply, type RpcReply } from "./http-client.js";
import {
  DEEP,
  HUGE_MIB,
  NEVER_BUFFERED_BYTES,
  envelopeCases,
  nested,
  prototypeKeys,
  prototypesUntouched,
} from "./hostile-input.js";

const MAX_MESSAGE_BYTES = 1024 * 1024;
const REQUEST_TIMEOUT_MS = 1500;
let server: HttpServerChild;
beforeAll(async () => {
  server = await hardeningHttp({
    limits: { maxMessageBytes: MAX_MESSAGE_BYTES, maxBatchSize: 8, maxInFlight: 4 },
    listen: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
  });
});
afterAll(() => server.stop());

const rpc = (id: string, method: string, params: object = {}) => JSON.stringify({ jsonrpc: "2.0", id, method, params });

async function stillServing(tag: string): Promise<void> {
  const { json } = await postJson(`${server.url}/ping`, rpc(tag, "ping", { nonce: tag }));
  expect(json).toEqual({ jsonrpc: "2.0", id: tag, result: { nonce: tag } });
}

describe("malformed envelopes over HTTP (§5.2, §4.1)", () => {
  it.each(envelopeCases)("$name: $code with id $id (400 for unparseable, else 200)", async ({ body, id, code }) => {
    const { status, json } = await postJson(server.url, body);
    expect(status).toBe(code === -32700 ? 400 : 200);
    expect(json).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
  });

  it("§4.5 a malformed message without an id gets 204 and no body", async () => {
    const reply = await postOnce(server.url, '{"jsonrpc":"2.0","method":"ping","params":"x"}');
    expect([reply.status, reply.text]).toEqual([204, ""]);
  });
});

describe("bytes, depth and length (§15.5)", () => {
  it("a body that is not UTF-8, inside a string or outside, is 400 with -32700 (§5.1)", async () => {
    const inside = Buffer.concat([
      Buffer.from(rpc("u", "ping", { nonce: "a" }).slice(0, -3)),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"}}'),
    ]);
    const insideReply = await postJson(`${server.url}/ping`, inside);
    expect([insideReply.status, insideReply.json.id, insideReply.json.error.code]).toEqual([400, null, -32700]);
    const outside = await postJson(server.url, Buffer.from([0xff, 0xfe, 0x7b, 0x7d]));
    expect([outside.status, outside.json.error.code]).toEqual([400, -32700]);
  });

  it(`JSON nested ${DEEP} levels is answered without a stack overflow`, async () => {
    const batch = await postJson<RpcReply[]>(server.url, nested("[", "]", DEEP));
    expect(batch.json).toEqual([
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) as unknown },
    ]);
    const params = await postJson(
      `${server.url}/x-test/echo`,
      `{"jsonrpc":"2.0","id":"d","method":"x-test/echo","params":{"a":${nested("[", "]", DEEP)}}}`,
    );
    expect(params.json.error).toEqual({ code: -32603, message: "Internal error" });
    expect((await postJson(server.url, "[".repeat(DEEP))).status).toBe(400);
    await stillServing("after-deep");
  });

  it("a string just under the limit is echoed intact", async () => {
    const nonce = "\u{1F600}".repeat((MAX_MESSAGE_BYTES - 200) / 4);
    expect((await postJson(`${server.url}/ping`, rpc("long", "ping", { nonce }))).json.result.nonce).toBe(nonce);
  });

  it("§15.5 a declared oversized body is 413 with -32013 before it is read", async () => {
    const { closed } = rawExchange(
      server.port,
      `POST /rcp/ping HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${64 * MAX_MESSAGE_BYTES}\r\n\r\n{"jsonrpc"`,
    );
    const received = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"code":-32013');
  });

  it(`§15.5 a ${HUGE_MIB} MiB chunked body is 413 with -32013, never buffered whole, and the server goes on`, async () => {
    const before = (await postJson(`${server.url}/x-harden/memory`, rpc("m1", "x-harden/memory"))).json.result
      .maxRssBytes as number;
    const huge = Buffer.alloc(HUGE_MIB * MAX_MESSAGE_BYTES, 0x20);
    const reply = await postOnce(`${server.url}/ping`, huge, { "transfer-encoding": "chunked" }).catch(
      (error: Error) => error,
    );
    // The server may hang up while the rest of the body is still being sent; either way it refused it.
    if (!(reply instanceof Error)) expect([reply.status, parseReply(reply.text).error.code]).toEqual([413, -32013]);
    await stillServing("after-huge");
    const after = (await postJson(`${server.url}/x-harden/memory`, rpc("m2", "x-harden/memory"))).json.result
      .maxRssBytes as number;
    expect(after - before).toBeLessThan(NEVER_BUFFERED_BYTES);
  });
});

describe("limits on batches and concurrency (§11, §4.7, §12.2)", () => {
  it("§11 a batch above maxBatchSize is one -32013 with id null, HTTP 200", async () => {
    const batch = JSON.stringify(Array.from({ length: 9 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })));
    const { status, json } = await postJson(server.url, batch);
    expect([status, json.id, json.error.code]).toEqual([200, null, -32013]);
  });

  it("§4.7 a batch holding more slow requests than maxInFlight sheds the rest with -32011 and retryAfterMs", async () => {
    const batch = JSON.stringify(
      Array.from({ length: 8 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "x-test/sleep", params: { ms: 50 } })),
    );
    const { json: members } = await postJson<RpcReply[]>(server.url, batch);
    expect(members.filter((member) => member.result)).toHaveLength(4);
    for (const member of members.filter((m) => m.error)) {
      expect(member.error).toMatchObject({
        code: -32011,
        data: { retryable: true, retryAfterMs: expect.any(Number) as unknown },
      });
    }
  });
});

describe("slow and stalled bodies (§15.5)", () => {
  it("a body that stalls is answered 408 and its socket closed once requestTimeoutMs passes", async () => {
    const started = Date.now();
    const { closed } = rawExchange(
      server.port,
      `POST /rcp/ping HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc":`,
    );
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    await stillServing("after-stall");
  });

  it("headers that trickle in byte by byte are cut off the same way", async () => {
    const { socket, closed } = rawExchange(server.port, "POST /rcp/ping HTTP/1.1\r\n");
    const drip = setInterval(() => socket.writable && socket.write("x"), 200);
    const received = await closed;
    clearInterval(drip);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe("prototype keys (§15.4)", () => {
  it("__proto__, constructor and prototype in params and _meta stay plain data and pollute nothing", async () => {
    const body = `{"jsonrpc":"2.0","id":"proto","method":"x-harden/prototypes","params":${prototypeKeys}}`;
    expect((await postJson(`${server.url}/x-harden/prototypes`, body)).json.result).toEqual(prototypesUntouched);
  });
});
