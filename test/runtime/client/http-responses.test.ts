/**
 * What an HTTP client call makes of the bytes a server answers with, over both exchanges:
 * fetch (the default) and `nodeHttpExchange` from `@rcp-gen/runtime/node`. The peer is a
 * hand-written HTTP/1.1 server on a raw socket on 127.0.0.1, so every framing can be sent,
 * split anywhere or malformed. A response whose body cannot be delimited for sure (conflicting
 * lengths, both framings at once: the stuff of response smuggling) or whose head is malformed
 * or too large fails the call with a TransportError, and its connection is never used again.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { httpClientTransport, type HttpClientTransportOptions } from "../../../runtime/src/client/http-transport.js";
import { nodeHttpExchange, type NodeHttpExchange } from "../../../runtime/src/client/node-http-exchange.js";
import { TransportError } from "../../../runtime/src/client/transport.js";
import {
  lengthResponse,
  startRawPeer,
  type RawPeer,
  type RawRequest,
} from "../../fixtures/client-peers/raw-http-peer.js";
import { failureOf, testClient } from "./peers.js";

let peer: RawPeer | undefined;
let ownExchange: NodeHttpExchange | undefined;
afterEach(async () => {
  ownExchange?.close();
  ownExchange = undefined;
  await peer?.close();
  peer = undefined;
});

const exchanges: Array<[string, () => Partial<HttpClientTransportOptions>]> = [
  ["fetch", () => ({})],
  ["nodeHttpExchange", () => ({ exchange: (ownExchange = nodeHttpExchange()) })],
];

/**
 * Answers a search: `request` as received, `id` its JSON-RPC id, `search` how many searches came before it.
 * What it returns is ignored; an async answer writes over several ticks.
 */
type SearchAnswer = (request: RawRequest, id: number, search: number) => unknown;

const initializeResult = {
  protocolVersion: 1,
  server: { name: "raw-peer", version: "0.0.1" },
  capabilities: { search: {} },
  _meta: { conformance: "L1" },
};

const resultBody = (id: number, result: unknown = { ok: true }) => JSON.stringify({ jsonrpc: "2.0", id, result });

/** An HTTP/1.1 chunked body: each piece one chunk, then the last chunk and `trailers`. */
function chunked(pieces: string[], trailers = ""): string {
  const chunks = pieces.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`).join("");
  return `${chunks}0\r\n${trailers}\r\n`;
}

const nextTick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe.each(exchanges)("over %s", (_name, exchangeOptions) => {
  /** A connected client whose searches `answer` scripts; initialize and notifications are answered plainly. */
  async function client(answer: SearchAnswer, options: Partial<HttpClientTransportOptions> = {}) {
    let searches = 0;
    peer = await startRawPeer((request) => {
      const frame = JSON.parse(request.body) as { id?: number; method: string };
      if (frame.id === undefined) request.socket.write("HTTP/1.1 204 No Content\r\n\r\n");
      else if (frame.method === "initialize")
        request.socket.write(lengthResponse(resultBody(frame.id, initializeResult)));
      else answer(request, frame.id, searches++);
    });
    const base = peer.url.replace(/\/search$/, "");
    const connected = testClient(httpClientTransport({ url: base, ...exchangeOptions(), ...options }));
    await connected.connect();
    return connected;
  }

  const searchConnections = () =>
    peer!.requests.filter((request) => request.raw.startsWith("POST /rcp/search")).map((request) => request.connection);

  describe("well-formed answers", () => {
    it("chunked with chunk extensions and trailers: the result is the chunks' data", async () => {
      const connected = await client((request, id) => {
        const [head, tail] = [resultBody(id).slice(0, 5), resultBody(id).slice(5)];
        request.socket.write(
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
            `${Buffer.byteLength(head).toString(16)};name=value\r\n${head}\r\n` +
            chunked([tail], "X-Checksum: 1\r\nX-Other: 2\r\n"),
        );
      });
      expect(await connected.call("search", { script: "any" })).toEqual({ ok: true });
    });

    it("chunked, with the head and every chunk line split at every byte", async () => {
      const connected = await client(async (request, id) => {
        const response =
          "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
          chunked([resultBody(id).slice(0, 9), resultBody(id).slice(9)]);
        for (const byte of Buffer.from(response, "latin1")) {
          request.socket.write(Buffer.of(byte));
          await nextTick();
        }
      });
      expect(await connected.call("search", { script: "any" })).toEqual({ ok: true });
    });

    it("with neither length nor chunking, the body runs until the server closes; the next call connects anew", async () => {
      const connected = await client((request, id) => {
        request.socket.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n");
        setImmediate(() => request.socket.end(resultBody(id)));
      });
      expect(await connected.call("search", { script: "any" })).toEqual({ ok: true });
      expect(await connected.call("search", { script: "any" })).toEqual({ ok: true });
      const [first, second] = searchConnections();
      expect(second).not.toBe(first);
    });
  });

  describe("refused answers fail the call with a TransportError; their connection is closed and the next call works", () => {
    const send =
      (response: string | ((id: number) => string)) =>
      (request: RawRequest, id: number): unknown =>
        request.socket.write(typeof response === "string" ? response : response(id));
    const cases: Array<[string, (request: RawRequest, id: number) => unknown]> = [
      ["a bad status line", send("HTTP/1.1 OK\r\n\r\n")],
      ["not HTTP at all", send("SSH-2.0-OpenSSH\r\n\r\n")],
      ["a header line without a colon", send("HTTP/1.1 200 OK\r\nno colon here\r\nContent-Length: 0\r\n\r\n")],
      [
        "conflicting Content-Lengths",
        send((id) => `HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n${resultBody(id)}`),
      ],
      [
        "both Transfer-Encoding and Content-Length",
        send(
          (id) =>
            `HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n${chunked([resultBody(id)])}`,
        ),
      ],
      ["a head over 64 KiB", send(`HTTP/1.1 200 OK\r\nX-Big: ${"b".repeat(70_000)}\r\n\r\n`)],
      ["a bad chunk size", send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")],
      ["chunk data longer than its size", send("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n")],
      [
        "a chunk size beyond any body",
        send(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1${"0".repeat(5000)}\r\n`),
      ],
      [
        "a body cut short by the server closing",
        (request) => request.socket.end("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort"),
      ],
    ];

    it.each(cases)("%s", async (_case, refuse) => {
      const connected = await client((request, id, search) =>
        search === 0 ? refuse(request, id) : request.socket.write(lengthResponse(resultBody(id))),
      );
      const error = await failureOf(connected.call("search", { script: "any" }));
      expect(error).toBeInstanceOf(TransportError);
      const [refusedOn] = searchConnections();
      await vi.waitFor(() => expect(peer!.closed.has(refusedOn!)).toBe(true));
      expect(await connected.call("search", { script: "any" })).toEqual({ ok: true });
      expect(searchConnections()[1]).not.toBe(refusedOn);
    });

    it("bytes past the end of a response never pass for the answer to the next call", async () => {
      const connected = await client((request, id) =>
        request.socket.write(`${lengthResponse(resultBody(id, { id }))}HTTP/1.1 200 OK\r\n`),
      );
      expect(await connected.call("search", { script: "any" })).toEqual({ id: 2 });
      await nextTick();
      expect(await connected.call("search", { script: "any" })).toEqual({ id: 3 });
    });

    it("a header value that would split the request is refused before anything is sent", async () => {
      peer = await startRawPeer(() => {});
      const transport = httpClientTransport({
        url: peer.url.replace(/\/search$/, ""),
        headers: { "X-Evil": "a\r\nX-Injected: 1" },
        ...exchangeOptions(),
      });
      expect(await failureOf(testClient(transport).connect())).toBeInstanceOf(TransportError);
      expect(peer.requests).toHaveLength(0);
    });
  });
});
