/**
 * One frame to a JSON-RPC message, for every transport (stdio and in-memory lines through
 * `ServerCore.handleText`, HTTP bodies in http/serve.ts): so how a frame that is not a message
 * at all is answered, -32700 with id null (JSON-RPC), is decided here once. Bytes must be UTF-8
 * (§4.6, §5.1) and the text JSON.
 */
import { ErrorCode, type ErrorObject } from "../protocol/errors.js";
import { decodeUtf8 } from "./utf8.js";

/** A frame that is not a message, with the error it is answered with. */
export class MalformedFrame {
  constructor(readonly error: ErrorObject) {}
}

export const NOT_UTF8 = new MalformedFrame({
  code: ErrorCode.ParseError,
  message: "Parse error: the message is not valid UTF-8",
});
const INVALID_JSON = new MalformedFrame({ code: ErrorCode.ParseError, message: "Parse error: invalid JSON" });

/** The message a frame holds, or the MalformedFrame saying why it holds none (JSON never parses into one). */
export function parseFrame(frame: string | Uint8Array): unknown {
  const text = typeof frame === "string" ? frame : decodeUtf8(frame);
  if (text === undefined) return NOT_UTF8;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}
