/**
 * Answers sent before a request has been read whole (§5.2, §15.5): a body whose HTTP framing the
 * parser refuses is answered 400 at once, not held until the body timeout, with the answers
 * already owed on its connection written first; and a 413, 400 or 408 reaches a client that sent
 * `Connection: close` and reads only once it has sent everything (Python's urllib), because the
 * rest of the request is read out before the connection closes (lingering close).
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "@rcp-gen/runtime/node";
import { createDemoServer } from "../../docs/examples/demo-engine/server.js";
import { pythonUpload } from "../net/python-upload.js";

/** Far above what any answer here may take: a refusal that waits for the body shows as a timeout. */
const BODY_TIMEOUT_MS = 30_000;
const AT_ONCE_MS = 1000;

let listening: Listening;
let port: number;
beforeAll(async () => {
  listening = await listen(createDemoServer(), { port: 0, bodyTimeoutMs: BODY_TIMEOUT_MS });
  port = Number(new URL(listening.url).port);
});
afterAll(() => listening.close());

const ping = (id: string): string => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
const head = (framing: string): string =>
  `POST /rcp/ping HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`;
const CHUNKED = head("transfer-encoding: chunked");
const BODY = ping("framing");
const size = (bytes: number): string => bytes.toString(16);

interface Answered {
  /** Everything the server sent before it closed. */
  text: string;
  /** Milliseconds from the last byte sent to the first byte answered. */
  firstByteMs: number;
}

/** Sends `bytes` on a raw socket (then half-closes, if asked) and collects the answer until the server closes. */
function exchange(bytes: string, halfClose: boolean): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let text = "";
    let sentAt = 0;
    let firstByteMs = -1;
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      if (firstByteMs < 0) firstByteMs = performance.now() - sentAt;
      text += chunk;
    });
    socket.once("error", reject);
    socket.once("close", () => resolve({ text, firstByteMs }));
    socket.write(bytes, () => {
      sentAt = performance.now();
      if (halfClose) socket.end();
    });
  });
}

const brokenBodies: Array<{ name: string; bytes: string; halfClose: boolean }> = [
  { name: "chunk size zz", bytes: `${CHUNKED}zz\r\n${BODY}\r\n0\r\n\r\n`, halfClose: false },
  { name: "chunk size -1", bytes: `${CHUNKED}-1\r\n${BODY}\r\n0\r\n\r\n`, halfClose: false },
  { name: "chunk size 2^64", bytes: `${CHUNKED}10000000000000000\r\n${BODY}\r\n0\r\n\r\n`, halfClose: false },
  { name: "chunk framing with LF only", bytes: `${CHUNKED}${size(BODY.length)}\n${BODY}\n0\n\n`, halfClose: false },
  {
    name: "a chunk shorter than its data",
    bytes: `${CHUNKED}${size(BODY.length - 5)}\r\n${BODY}\r\n0\r\n\r\n`,
    halfClose: false,
  },
  {
    name: "a chunk longer than its data, then a half-close",
    bytes: `${CHUNKED}${size(BODY.length + 5)}\r\n${BODY}\r\n0\r\n\r\n`,
    halfClose: true,
  },
  {
    name: "chunk size ffffffffffffffff, then a half-close",
    bytes: `${CHUNKED}ffffffffffffffff\r\n${BODY}`,
    halfClose: true,
  },
  {
    name: "the final CRLF missing, then a half-close",
    bytes: `${CHUNKED}${size(BODY.length)}\r\n${BODY}\r\n0\r\n`,
    halfClose: true,
  },
  {
    name: "Content-Length larger than the body, then a half-close",
    bytes: `${head(`content-length: ${BODY.length + 100}`)}${BODY}`,
    halfClose: true,
  },
];

describe("§5.2 a body the HTTP parser refuses is answered 400 at once", () => {
  it.concurrent.each(brokenBodies)("$name: 400 with -32700 in well under a second", async ({ bytes, halfClose }) => {
    const { text, firstByteMs } = await exchange(bytes, halfClose);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('"code":-32700');
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(firstByteMs).toBeLessThan(AT_ONCE_MS);
  });

  it("the answer already owed on the connection is written first", async () => {
    const slow = JSON.stringify({
      jsonrpc: "2.0",
      id: "owed",
      method: "retrieve",
      params: { query: "sourdough", k: 1, _meta: { "x-demo-delayMs": 200 } },
    });
    const first = `POST /rcp/retrieve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(slow)}\r\n\r\n${slow}`;
    const { text } = await exchange(`${first}${CHUNKED}zz\r\n${BODY}\r\n`, false);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    const second = text.indexOf("HTTP/1.1 400 ");
    expect(text.indexOf('"id":"owed","result"')).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(text.indexOf('"id":"owed","result"'));
    expect(text.slice(second)).toContain('"code":-32700');
  });
});

describe("§15.5 an answer sent before the body is read reaches a client that sent Connection: close", () => {
  // The default maxMessageBytes is 4 MiB.
  const oversized = Math.round(4.5 * 1024 * 1024);

  it("40 oversized uploads one at a time: every client reads 413 with -32013", async () => {
    const results = await pythonUpload(`${listening.url}/ping`, oversized, 40, "sequential");
    expect(results).toEqual(Array.from({ length: 40 }, () => [413, -32013]));
  }, 60_000);

  it("40 oversized uploads in parallel: every client reads 413 with -32013", async () => {
    const results = await pythonUpload(`${listening.url}/ping`, oversized, 40, "parallel");
    expect(results).toEqual(Array.from({ length: 40 }, () => [413, -32013]));
  }, 60_000);

  it("a large body with broken framing, sent whole before reading: the client reads the 400", async () => {
    const garbage = "x".repeat(2 * 1024 * 1024);
    const { text } = await exchange(`${CHUNKED}zz\r\n${garbage}`, true);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toContain('"code":-32700');
  });
});
