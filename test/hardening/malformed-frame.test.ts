/**
 * A frame that is not a message at all is answered the same way on every transport (one parse,
 * runtime/src/framing/parse-frame.ts): -32700 with id null and the same message over stdio as
 * in the body of HTTP's 400 (§5.1, §5.2), against the hardening server in two child processes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { StdioChild } from "../runtime/server/helpers/stdio-child.js";
import { hardeningHttp, hardeningStdio, type HttpServerChild } from "./children.js";
import { postOnce, type RpcReply } from "./http-client.js";

let stdio: StdioChild;
let http: HttpServerChild;
beforeAll(async () => {
  [stdio, http] = await Promise.all([hardeningStdio(), hardeningHttp()]);
});
afterAll(() => {
  stdio.kill();
  http.stop();
});

async function overStdio(frame: Buffer): Promise<RpcReply> {
  const before = stdio.responsesFor(null).length;
  stdio.writeRaw(frame);
  stdio.writeRaw("\n");
  await stdio.next(() => stdio.responsesFor(null).length > before);
  return stdio.responsesFor(null).at(-1)! as RpcReply;
}

it.each([
  ["truncated JSON", Buffer.from('{"jsonrpc":"2.0","id":'), "Parse error: invalid JSON"],
  ["a NaN literal", Buffer.from('{"jsonrpc":"2.0","id":NaN,"method":"ping"}'), "Parse error: invalid JSON"],
  ["bytes that are not UTF-8", Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), "Parse error: the message is not valid UTF-8"],
])("%s: the stdio line and the HTTP body get the same error, HTTP with status 400", async (_name, frame, message) => {
  const expected = { jsonrpc: "2.0", id: null, error: { code: -32700, message } };
  expect(await overStdio(frame)).toEqual(expected);
  const reply = await postOnce(http.url, frame);
  expect(reply.status).toBe(400);
  expect(JSON.parse(reply.text)).toEqual(expected);
});
