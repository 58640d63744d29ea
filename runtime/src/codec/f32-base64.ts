/**
 * The `f32-base64` compact vector encoding (§7.3.1): little-endian IEEE-754 binary32
 * components, concatenated, base64 with padding (RFC 4648 §4). DataView fixes the byte
 * order explicitly, so the wire is identical on big- and little-endian hosts. Web APIs only
 * (btoa/atob), so the codec is the same on Node, Bun, Deno, workers and browsers.
 */
import { invalidParams } from "../protocol/errors.js";

const BYTES_PER_COMPONENT = 4;
/** Canonical padded base64: whole quanta, optional `=`/`==` tail, standard alphabet only. */
const PADDED_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Encodes one vector. Non-finite components are refused: JSON could not carry them either (§4.6). */
export function encodeF32Base64(vector: ArrayLike<number>): string {
  const view = new DataView(new ArrayBuffer(vector.length * BYTES_PER_COMPONENT));
  for (let index = 0; index < vector.length; index += 1) {
    const component = vector[index]!;
    const asFloat32 = Math.fround(component);
    if (!Number.isFinite(asFloat32)) {
      throw new RangeError(`component ${index} is not a finite float32: ${component}`);
    }
    view.setFloat32(index * BYTES_PER_COMPONENT, asFloat32, true);
  }
  return toBase64(new Uint8Array(view.buffer));
}

/**
 * Decodes one blob of `dimension` components. Anything that is not canonical padded base64,
 * not exactly `dimension × 4` bytes, or carries a non-finite component is -32602 naming `field`.
 */
export function decodeF32Base64(blob: string, dimension: number, field = "vector"): number[] {
  if (!PADDED_BASE64.test(blob)) throw invalidParams(field, "not padded base64 (RFC 4648 §4)");
  const bytes = fromBase64(blob);
  const expected = dimension * BYTES_PER_COMPONENT;
  if (bytes.length !== expected) {
    throw invalidParams(field, `decodes to ${bytes.length} bytes; dimension ${dimension} needs ${expected}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector: number[] = [];
  for (let index = 0; index < dimension; index += 1) {
    const component = view.getFloat32(index * BYTES_PER_COMPONENT, true);
    if (!Number.isFinite(component)) throw invalidParams(`${field}[${index}]`, "component is not finite");
    vector.push(component);
  }
  return vector;
}

/** Characters per String.fromCharCode call: well below any engine's argument limit. */
const CHARS_PER_CALL = 0x2000;

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += CHARS_PER_CALL)
    binary += String.fromCharCode(...bytes.subarray(start, start + CHARS_PER_CALL));
  return btoa(binary);
}

/** Bytes of base64 text already checked against PADDED_BASE64, so atob cannot throw. */
function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
