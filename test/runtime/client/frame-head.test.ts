/** The client's reading of the first bytes of a frame too large to parse (§15.5): which request it answers. */
import { describe, expect, it } from "vitest";
import { readFrameHead } from "../../../runtime/src/client/frame-head.js";

describe("readFrameHead", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":42,"result":{"hits":[{"id":"d1"', { id: 42, hasMethod: false }],
    ['{ "jsonrpc" : "2.0" , "id" : "req-7" , "error": {"code"', { id: "req-7", hasMethod: false }],
    ['{"result":{"hits":[{"id":5,"text":"a \\"quoted\\" id"},', { hasMethod: false }],
    ['{"jsonrpc":"2.0","method":"notifications/progress","params":{"partial":{"hits":[{"id":3', { hasMethod: true }],
    ['{"jsonrpc":"2.0","id":12', { hasMethod: false }],
    ['{"id":-1.5e3,"result":"', { id: -1500, hasMethod: false }],
    ['{"data":"id","id":"x\\u0041"', { id: "xA", hasMethod: false }],
  ])("%s", (head, expected) => {
    expect(readFrameHead(head)).toEqual(expected);
  });
});
