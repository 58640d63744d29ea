import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeF32Base64, encodeF32Base64 } from "../../runtime/src/codec/f32-base64.js";
import { rcpRejection } from "../demo/rcp-rejection.js";

describe("§7.3.1 f32-base64", () => {
  it("writes little-endian binary32 whatever the host byte order", () => {
    // 1.0f is 0x3F800000: little-endian bytes 00 00 80 3F.
    expect(encodeF32Base64([1])).toBe("AACAPw==");
    expect(Buffer.from(encodeF32Base64([1, -2]), "base64")).toEqual(Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]));
  });

  it("round-trips any finite vector at float32 precision", () => {
    fc.assert(
      fc.property(fc.array(fc.float({ noNaN: true, noDefaultInfinity: true }), { maxLength: 64 }), (vector) => {
        const decoded = decodeF32Base64(encodeF32Base64(vector), vector.length);
        expect(decoded).toEqual(vector.map((component) => Math.fround(component)));
      }),
      { numRuns: 300 },
    );
  });

  it("rejects a blob whose length is not dimension × 4 with -32602 naming the field", async () => {
    const error = await rcpRejection(() => decodeF32Base64(encodeF32Base64([1, 2, 3]), 4, "vectors.0"));
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ field: "vectors.0" });
    expect(error.data?.detail).toMatch(/12 bytes; dimension 4 needs 16/);
    expect((await rcpRejection(() => decodeF32Base64(encodeF32Base64([1, 2, 3]), 2))).code).toBe(-32602);
  });

  it("rejects unpadded or non-alphabet base64 and non-finite components", async () => {
    expect((await rcpRejection(() => decodeF32Base64("AACAPw", 1))).code).toBe(-32602);
    expect((await rcpRejection(() => decodeF32Base64("AAC*Pw==", 1))).code).toBe(-32602);
    const nan = Buffer.from([0, 0, 0xc0, 0x7f]).toString("base64");
    expect((await rcpRejection(() => decodeF32Base64(nan, 1))).data).toMatchObject({ field: "vector[0]" });
    expect(() => encodeF32Base64([Number.POSITIVE_INFINITY])).toThrow(RangeError);
    expect(() => encodeF32Base64([1e39])).toThrow(RangeError);
  });
});
