/**
 * The raw exchange's response parser fed the same responses cut in two at every byte: what
 * it reports (head, body, the end and what followed it) never depends on where reads split.
 */
import { describe, expect, it } from "vitest";
import { ResponseParser, type ResponseHead } from "../../../runtime/src/client/http1-response-parser.js";

interface Parsed {
  heads: Array<Pick<ResponseHead, "status" | "keepAlive"> & { headers: Record<string, string> }>;
  body: string;
  rest: string | undefined;
  ended: number;
}

function parse(pieces: Buffer[]): Parsed {
  const parsed: Parsed = { heads: [], body: "", rest: undefined, ended: 0 };
  const parser = new ResponseParser({
    head: ({ status, keepAlive, headers }) =>
      parsed.heads.push({ status, keepAlive, headers: Object.fromEntries(headers) }),
    chunk: (bytes) => (parsed.body += bytes.toString("latin1")),
    end: (rest) => {
      parsed.ended += 1;
      parsed.rest = rest?.toString("latin1");
    },
  });
  // Once the response ended, what follows is the connection's next bytes, not this parser's.
  for (const piece of pieces)
    if (parsed.ended === 0) parser.feed(piece);
    else parsed.rest = (parsed.rest ?? "") + piece.toString("latin1");
  return parsed;
}

const responses: Record<string, string> = {
  chunked:
    "HTTP/1.1 100 Continue\r\n\r\n" +
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nX-A: 1\r\nx-a: 2\r\n\r\n" +
    "3;ext=1\r\nabc\r\n" +
    "A\r\n0123456789\r\n" +
    "0\r\nTrailer-One: x\r\n\r\nNEXT",
  length: "HTTP/1.1 201 Created\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbodyNEXT",
  empty: "HTTP/1.0 204 No Content\r\nConnection: keep-alive\r\n\r\nNEXT",
  "twice-sized": "HTTP/1.1 200 OK\r\nContent-Length: 4\r\ncontent-length: 4\r\n\r\nbodyNEXT",
};

describe.each(Object.entries(responses))("a %s response", (_name, response) => {
  const bytes = Buffer.from(response, "latin1");
  const whole = parse([bytes]);

  it("parses whole", () => {
    expect(whole.ended).toBe(1);
    expect(whole.rest).toBe("NEXT");
    expect(whole.heads).toHaveLength(1);
  });

  it("parses the same when cut at every byte", () => {
    for (let at = 1; at < bytes.byteLength; at += 1) {
      const cut = parse([bytes.subarray(0, at), bytes.subarray(at)]);
      expect(cut, `cut at ${at}`).toEqual(whole);
    }
  });
});

it("reports what the heads say", () => {
  expect(parse([Buffer.from(responses.chunked!, "latin1")])).toMatchObject({
    heads: [{ status: 200, keepAlive: true, headers: { "x-a": "1, 2", "transfer-encoding": "gzip, chunked" } }],
    body: "abc0123456789",
  });
  expect(parse([Buffer.from(responses.length!, "latin1")]).heads[0]).toMatchObject({ status: 201, keepAlive: false });
  expect(parse([Buffer.from(responses.empty!, "latin1")])).toMatchObject({
    heads: [{ status: 204, keepAlive: true }],
    body: "",
  });
});
