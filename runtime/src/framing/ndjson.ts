/**
 * NDJSON framing for stdio (§5.1). The reader splits on the byte 0x0A, so a frame or a
 * multi-byte UTF-8 character split across reads at any byte is reassembled before it
 * is decoded; a line that is not UTF-8 is reported, never decoded with replacement
 * characters. Blank lines are ignored, a trailing \r is tolerated, and a leading BOM on
 * the stream is dropped. A line longer than `maxLineBytes` is never buffered whole: the
 * reader keeps its first OVERSIZED_HEAD_BYTES (so a client can tell which request it
 * answered), discards the rest as it arrives, reports it once as oversized, and goes on with
 * the next line.
 */

import { decodeUtf8 } from "./utf8.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Bytes of an oversized line kept for onOversized: room for `{"jsonrpc":"2.0","id":...`. */
export const OVERSIZED_HEAD_BYTES = 256;

/** What an `NdjsonReader` calls for each line, and its limit. */
export interface NdjsonReaderOptions {
  /** Called with each complete, non-blank line (without its terminator). */
  onLine: (line: string) => void;
  /** Called once per line that exceeded `maxLineBytes`; `bytes` counts what was seen, `head` is its start. */
  onOversized?: (bytes: number, head: Uint8Array) => void;
  /** Called once per line whose bytes are not valid UTF-8. Default: the line is dropped. */
  onNotUtf8?: () => void;
  /** Largest accepted line in bytes, excluding the terminator. Default: unlimited. */
  maxLineBytes?: number;
}

/** Splits a byte stream into NDJSON lines (§5.1), refusing a line over the limit or not UTF-8. */
export class NdjsonReader {
  readonly #onLine: (line: string) => void;
  readonly #onOversized: (bytes: number, head: Uint8Array) => void;
  readonly #onNotUtf8: () => void;
  readonly #maxLineBytes: number;
  /** Bytes of the current, unterminated line. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set, to the line's first bytes, while skipping the rest of an oversized line. */
  #discarding: Buffer | undefined;
  #atStreamStart = true;

  constructor(options: NdjsonReaderOptions) {
    this.#onLine = options.onLine;
    this.#onOversized = options.onOversized ?? (() => {});
    this.#onNotUtf8 = options.onNotUtf8 ?? (() => {});
    this.#maxLineBytes = options.maxLineBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Feeds the next chunk of bytes; strings are taken as UTF-8. */
  push(chunk: Uint8Array | string): void {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : toBuffer(chunk);
    if (this.#atStreamStart && bytes.length > 0) bytes = this.#dropBom(bytes);
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#accumulate(bytes.subarray(start));
        return;
      }
      this.#accumulate(bytes.subarray(start, newline));
      this.#finishLine();
      start = newline + 1;
    }
  }

  /** End of input: an unterminated last line still counts. */
  end(): void {
    this.#finishLine();
  }

  #dropBom(bytes: Buffer): Buffer {
    // The BOM may itself arrive split; wait until three bytes are known.
    const seen = Buffer.concat([...this.#pending, bytes]);
    if (seen.length < 3 && isBomPrefix(seen)) {
      this.#pending = [seen];
      this.#pendingBytes = seen.length;
      return Buffer.alloc(0);
    }
    this.#atStreamStart = false;
    this.#pending = [];
    this.#pendingBytes = 0;
    return isBomPrefix(seen) ? seen.subarray(3) : seen;
  }

  #accumulate(part: Buffer): void {
    if (part.length === 0) return;
    this.#pendingBytes += part.length;
    if (this.#discarding) return;
    if (this.#pendingBytes > this.#maxLineBytes + 1) {
      // +1 leaves room for a trailing \r that is not part of the message.
      this.#discarding = firstBytes([...this.#pending, part], OVERSIZED_HEAD_BYTES);
      this.#pending = [];
      return;
    }
    this.#pending.push(part);
  }

  #finishLine(): void {
    const total = this.#pendingBytes;
    const parts = this.#pending;
    const discarded = this.#discarding;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#discarding = undefined;
    if (discarded) {
      this.#onOversized(total, discarded);
      return;
    }
    if (total === 0) return;
    let line = parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
    if (line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > this.#maxLineBytes) {
      this.#onOversized(total, line.subarray(0, OVERSIZED_HEAD_BYTES));
      return;
    }
    const text = decodeUtf8(line);
    if (text === undefined) return this.#onNotUtf8();
    if (isBlank(text)) return;
    this.#onLine(text);
  }
}

/** One NDJSON frame: the already-serialised compact JSON plus its terminator. No BOM, ever. */
export function ndjsonFrame(json: string): string {
  return json + "\n";
}

/** The first `count` bytes across `parts`, without joining them all. */
function firstBytes(parts: readonly Buffer[], count: number): Buffer {
  const head: Buffer[] = [];
  let size = 0;
  for (const part of parts) {
    if (size >= count) break;
    const taken = part.subarray(0, count - size);
    head.push(taken);
    size += taken.length;
  }
  return Buffer.concat(head, size);
}

function toBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

const BOM = [0xef, 0xbb, 0xbf];

function isBomPrefix(bytes: Buffer): boolean {
  const n = Math.min(bytes.length, 3);
  for (let i = 0; i < n; i++) if (bytes[i] !== BOM[i]) return false;
  return n > 0;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
