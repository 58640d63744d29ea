/**
 * Wire serialisation. Non-finite numbers are not JSON (§4.6): an object member holding
 * NaN or ±Infinity is omitted, and an array element holding one becomes the finite
 * sentinel 0 (dropping it would shift every later index, e.g. in an embedding).
 */
import type { RequestId } from "./types.js";
import type { ErrorObject } from "./errors.js";

/** JSON text of a value as RCP sends it: non-finite numbers dropped from objects and made 0 in arrays (§4.6). */
export function serialize(value: unknown): string {
  const json = JSON.stringify(value);
  // JSON.stringify writes non-finite numbers as null; only then is the slow path needed.
  if (json === undefined) return "null";
  if (!json.includes("null") || !containsNonFinite(value)) return json;
  // A bare non-finite value is dropped by the replacer entirely; null is its sentinel.
  return JSON.stringify(value, replaceNonFinite) ?? "null";
}

export function resultFrame(id: RequestId | null, result: unknown): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${serialize(result)}}`;
}

export function errorFrame(id: RequestId | null, error: ErrorObject): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${serialize(error)}}`;
}

export function notificationFrame(method: string, params: unknown): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)},"params":${serialize(params)}}`;
}

function replaceNonFinite(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) return Array.isArray(this) ? 0 : undefined;
  return value;
}

function containsNonFinite(value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some(containsNonFinite);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  for (const key in value) {
    if (containsNonFinite((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}
