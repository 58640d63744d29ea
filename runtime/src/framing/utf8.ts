/**
 * Messages are UTF-8 (§4.6, §5.1). Bytes that are not are refused as a parse error rather
 * than decoded with U+FFFD, which would silently change a query or an id.
 */
import { isUtf8 } from "node:buffer";

/** The text of `bytes`, or undefined when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Buffer): string | undefined {
  return isUtf8(bytes) ? bytes.toString("utf8") : undefined;
}

export const NOT_UTF8_MESSAGE = "Parse error: the message is not valid UTF-8";
