/**
 * Floods over stateless HTTP (§4.7, §5.2, §12.2): every POST is its own connection, so the
 * server-wide `maxConcurrentRequests` is what bounds the work in progress. Past it a request
 * is shed with 429, Retry-After and -32011 before its body is read, and capacity comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningHttp, type HttpServerChild } from "./children.js";
import { parseReply, postOnce } from "./http-client.js";

const CAP = 2;
let server: HttpServerChild;
beforeAll(async () => {
  server = await hardeningHttp({ listen: { maxConcurrentRequests: CAP } });
});
afterAll(() => server.stop());

const sleepRequest = (id: number, ms: number) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "x-test/sleep", params: { ms } });

describe("a server-wide cap on HTTP requests in progress (§4.7, §12.2)", () => {
  it("sheds requests beyond the cap with 429, Retry-After and -32011 + retryAfterMs; capacity returns", async () => {
    const slow = Array.from({ length: CAP }, (_, i) => postOnce(`${server.url}/x-test/sleep`, sleepRequest(i, 1500)));
    // Shedding is decided when a request arrives: probe until the slow ones hold every slot.
    let shed = await postOnce(`${server.url}/x-test/sleep`, sleepRequest(99, 1));
    for (let attempt = 0; shed.status !== 429 && attempt < 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shed = await postOnce(`${server.url}/x-test/sleep`, sleepRequest(99, 1));
    }
    expect(shed.status).toBe(429);
    expect(shed.headers["retry-after"]).toMatch(/^\d+$/);
    expect(JSON.parse(shed.text)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32011,
        message: expect.stringContaining("Rate limited") as unknown,
        data: { retryable: true, retryAfterMs: expect.any(Number) as unknown },
      },
    });
    for (const reply of await Promise.all(slow)) expect(parseReply(reply.text).result).toBeDefined();
    const afterwards = await postOnce(`${server.url}/x-test/sleep`, sleepRequest(100, 1));
    expect([afterwards.status, parseReply(afterwards.text).id]).toEqual([200, 100]);
  });
});
