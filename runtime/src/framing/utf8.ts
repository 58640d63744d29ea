/**
 * Messages are UTF-8 (§4.6, §5.1). Bytes that are not are refused as a parse error rather
 * than decoded with U+FFFD, which would silently change a query or an id. A Web API
 * (TextDecoder with `fatal`), so the check is the same on Node, Bun, Deno, workers and browsers.
 */

// ignoreBOM: a byte-order mark is kept as U+FEFF, as any other character, not silently dropped.
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or undefined when they are not well-formed UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}
