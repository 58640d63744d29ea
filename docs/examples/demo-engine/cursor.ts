/**
 * Opaque pagination cursors (§10). A cursor binds the query fingerprint, the offset of the
 * next page and the snapshot it pages through, so later pages come from the same ranking
 * and neither skip nor repeat hits even while the index changes.
 */
import { invalidParams } from "@rcp-gen/runtime";
import type { RetrieveRequest } from "./retrieve.js";
import { hash64 } from "./text.js";

const PREFIX = "c1.";

export interface CursorState {
  fingerprint: string;
  offset: number;
  indexVersion: string;
}

export function encodeCursor(state: CursorState): string {
  const payload = JSON.stringify([state.fingerprint, state.offset, state.indexVersion]);
  return PREFIX + toBase64Url(new TextEncoder().encode(payload));
}

export function decodeCursor(cursor: string): CursorState {
  if (!cursor.startsWith(PREFIX)) throw invalidParams("cursor", "not a cursor issued by this server");
  let decoded: unknown;
  try {
    decoded = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64Url(cursor.slice(PREFIX.length))));
  } catch {
    throw invalidParams("cursor", "not a cursor issued by this server");
  }
  if (!Array.isArray(decoded) || decoded.length !== 3)
    throw invalidParams("cursor", "not a cursor issued by this server");
  const [fingerprint, offset, indexVersion] = decoded as unknown[];
  if (
    typeof fingerprint !== "string" ||
    !Number.isSafeInteger(offset) ||
    (offset as number) < 0 ||
    typeof indexVersion !== "string"
  ) {
    throw invalidParams("cursor", "not a cursor issued by this server");
  }
  return { fingerprint, offset: offset as number, indexVersion };
}

// Web APIs (btoa/atob), so the demo runs unchanged on Node, Bun, Deno and workers.
function toBase64Url(bytes: Uint8Array): string {
  const base64 = btoa(String.fromCharCode(...bytes));
  return base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Throws on anything that is not base64url, as a forged cursor would be. */
function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * A stable hash of everything that shapes the ranking: the known members only, minus page
 * position, pin and side-band data. Unknown members are ignored (§4.6), however deeply nested,
 * so they can neither change the fingerprint nor make hashing it recurse without bound.
 */
export function queryFingerprint(request: Readonly<RetrieveRequest>): string {
  const { query, k, mode, candidateK, fusion, rerank, mmr, rewrite, filter, minScore } = request;
  const { includeText, includeVectors, encoding, seed } = request;
  const shaping = {
    query,
    k,
    mode,
    candidateK,
    fusion: isRecord(fusion)
      ? {
          method: fusion.method,
          weights: isRecord(fusion.weights)
            ? { dense: fusion.weights.dense, sparse: fusion.weights.sparse }
            : undefined,
          rrfK: fusion.rrfK,
          alpha: fusion.alpha,
        }
      : fusion,
    rerank: isRecord(rerank) ? { method: rerank.method, topN: rerank.topN } : rerank,
    mmr: isRecord(mmr) ? { lambda: mmr.lambda } : mmr,
    rewrite,
    filter: filterShape(filter),
    minScore,
    includeText,
    includeVectors,
    encoding,
    seed,
  };
  return hash64(canonicalJson(shaping));
}

/** A filter's combinators and clauses (its depth is already bounded by validation, §8). */
function filterShape(node: unknown): unknown {
  if (!isRecord(node)) return node;
  if (Array.isArray(node.and)) return { and: node.and.map(filterShape) };
  if (Array.isArray(node.or)) return { or: node.or.map(filterShape) };
  if ("not" in node) return { not: filterShape(node.not) };
  return { field: node.field, op: node.op, value: node.value };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
