/**
 * HTTP clients that misbehave within the protocol's letter (§5.2, §15.5): slow bodies, oversized
 * uploads sent in full, garbage pipelined after a request, a repeated Host. Each is answered
 * without costing other callers their answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "node:net";
import { listen, type Listening } from "@rcp-gen/runtime/node";
import { createDemoServer } from "../../docs/examples/demo-engine/server.js";
import { parseReply, postOnce, rawExchange } from "./http-client.js";

const MAX_CONCURRENT = 4;
const MAX_PENDING_BODIES = 8;
const BODY_TIMEOUT_MS = 1000;
const MAX_MESSAGE_BYTES = 1024 * 1024;

let listening: Listening;
let port: number;
beforeAll(async () => {
  const server = createDemoServer();
  listening = await listen(server, {
    port: 0,
    maxConcurrentRequests: MAX_CONCURRENT,
    maxPendingBodies: MAX_PENDING_BODIES,
    bodyTimeoutMs: BODY_TIMEOUT_MS,
  });
  port = Number(new URL(listening.url).port);
});
afterAll(() => listening.close());

const ping = (id: string): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });

/** A request whose headers promise a body that arrives one byte at a time, never whole. */
function slowBody(): { socket: Socket; closed: Promise<string> } {
  const body = ping("slow");
  const exchange = rawExchange(
    port,
    `POST /rcp/ping HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body[0]}`,
  );
  return exchange;
}

describe("§15.5 slow bodies hold a pending-body place, never a request slot", () => {
  it("a legitimate call is answered while 3x maxConcurrentRequests bodies trickle in; each slow one gets 408 and is closed", async () => {
    const slow = Array.from({ length: 3 * MAX_CONCURRENT }, slowBody);
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let call = 0; call < 5; call++) {
      const reply = await postOnce(`${listening.url}/ping`, ping(`legit-${call}`));
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toMatchObject({ id: `legit-${call}`, result: {} });
    }
    const answers = await Promise.all(slow.map(({ closed }) => closed));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"code":-32014');
    }
  });
});

describe("§15.5 an oversized upload sent in full", () => {
  it("gets 413 with -32013, never a reset, for 10 parallel clients sending 8 MiB", async () => {
    const body = Buffer.alloc(8 * MAX_MESSAGE_BYTES, 0x20);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => postOnce(`${listening.url}/ping`, body).catch((error: Error) => error)),
    );
    for (const reply of replies) {
      expect(reply).not.toBeInstanceOf(Error);
      const { status, text } = reply as { status: number; text: string };
      expect([status, parseReply(text).error.code]).toEqual([413, -32013]);
    }
  });
});

describe("§5.2 framing errors on a connection with answers pending", () => {
  it("garbage pipelined after a request: the request's answer comes first, then 400 and the close", async () => {
    const request = JSON.stringify({
      jsonrpc: "2.0",
      id: "before-garbage",
      method: "retrieve",
      params: { query: "sourdough", k: 1, _meta: { "x-demo-delayMs": 100 } },
    });
    const { closed } = rawExchange(
      port,
      `POST /rcp/retrieve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(request)}\r\n\r\n${request}` +
        "NOT HTTP AT ALL\r\n\r\n",
    );
    const received = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('"id":"before-garbage","result"');
    expect(received.slice(received.indexOf('"before-garbage"'))).toMatch(/HTTP\/1\.1 400 /);
  });

  it("a repeated Host header is 400, whichever copy would have been allowed", async () => {
    const body = ping("two-hosts");
    const { closed, socket } = rawExchange(
      port,
      `POST /rcp/ping HTTP/1.1\r\nhost: 127.0.0.1\r\nhost: evil.example\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    const received = await closed;
    socket.destroy();
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(received).toContain('"code":-32600');
  });
});
