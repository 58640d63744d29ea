/** The NDJSON line reader of §5.1, fed bytes the way pipes deliver them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NdjsonReader, ndjsonFrame } from "../../../runtime/src/framing/ndjson.js";

function collect(maxLineBytes?: number) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const notUtf8: number[] = [];
  const reader = new NdjsonReader({
    maxLineBytes,
    onLine: (line) => lines.push(line),
    onOversized: (bytes) => oversized.push(bytes),
    onNotUtf8: () => notUtf8.push(lines.length),
  });
  return { reader, lines, oversized, notUtf8 };
}

/** Splits bytes at the given cut points (any byte offsets). */
function chunks(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Buffer[] = [];
  let from = 0;
  for (const point of points) {
    parts.push(bytes.subarray(from, point));
    from = point;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

describe("NdjsonReader (§5.1)", () => {
  it("reassembles any messages split at any bytes, including inside multi-byte UTF-8", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "grapheme", minLength: 1 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (texts, cuts) => {
          const messages = texts.map((text) => JSON.stringify({ text }));
          const { reader, lines } = collect();
          for (const part of chunks(Buffer.from(messages.map(ndjsonFrame).join("")), cuts)) reader.push(part);
          expect(lines).toEqual(messages);
        },
      ),
    );
  });

  it("ignores blank lines, tolerates a trailing \\r and drops a leading BOM even when split", () => {
    const { reader, lines } = collect();
    const bytes = Buffer.concat([Buffer.of(0xef), Buffer.of(0xbb, 0xbf), Buffer.from('{"a":1}\r\n\n  \r\n{"b":2}\n')]);
    for (const byte of bytes) reader.push(Buffer.of(byte));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it("reports an oversized line once, without keeping its bytes, then reads the next line", () => {
    const { reader, lines, oversized } = collect(10);
    reader.push("0123456789");
    reader.push("abcdefghij".repeat(100));
    reader.push("tail\nok\n");
    expect(oversized).toEqual([1014]);
    expect(lines).toEqual(["ok"]);
  });

  it("hands over the first 256 bytes of an oversized line, however it arrived", () => {
    const heads: string[] = [];
    const reader = new NdjsonReader({
      maxLineBytes: 300,
      onLine: () => {},
      onOversized: (_bytes, head) => heads.push(Buffer.from(head).toString("latin1")),
    });
    const line = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(65 + (i % 26))).join("");
    for (let at = 0; at < line.length; at += 7) reader.push(line.slice(at, at + 7));
    reader.push("\n" + line.slice(0, 400) + "\n");
    expect(heads).toEqual([line.slice(0, 256), line.slice(0, 256)]);
  });

  it("reports a line that is not UTF-8 (a stray byte, a truncated sequence) instead of decoding it, then goes on", () => {
    const { reader, lines, notUtf8 } = collect();
    reader.push(Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xff]), Buffer.from('"}\n{"b":1}\n')]));
    reader.push(Buffer.concat([Buffer.from('{"c":"'), Buffer.from([0xe2, 0x82]), Buffer.from('"}\n{"d":"\u20ac"}\n')]));
    expect(lines).toEqual(['{"b":1}', '{"d":"\u20ac"}']);
    expect(notUtf8).toEqual([0, 1]);
  });

  it("a line exactly at the limit passes; its \\r does not count", () => {
    const { reader, lines, oversized } = collect(4);
    reader.push("abcd\r\nabcde\n");
    expect(lines).toEqual(["abcd"]);
    expect(oversized).toEqual([5]);
  });

  it("end() delivers an unterminated last line", () => {
    const { reader, lines } = collect();
    reader.push('{"last":true}');
    expect(lines).toEqual([]);
    reader.end();
    expect(lines).toEqual(['{"last":true}']);
  });

  it("a frame never carries a BOM and ends with exactly one newline", () => {
    expect(ndjsonFrame('{"a":"b"}')).toBe('{"a":"b"}\n');
  });
});
