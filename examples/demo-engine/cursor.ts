/**
 * Opaque pagination cursors (§10). A cursor binds the query fingerprint, the offset of the
 * next page and the snapshot it pages through, so later pages come from the same ranking
 * and neither skip nor repeat hits even while the index changes.
 */
import { invalidParams } from "@rcp-gen/runtime";
import { hash64 } from "./text.js";

const PREFIX = "c1.";

export interface CursorState {
  fingerprint: string;
  offset: number;
  indexVersion: string;
}

export function encodeCursor(state: CursorState): string {
  const payload = JSON.stringify([state.fingerprint, state.offset, state.indexVersion]);
  return PREFIX + Buffer.from(payload, "utf8").toString("base64url");
}

export function decodeCursor(cursor: string): CursorState {
  if (!cursor.startsWith(PREFIX)) throw invalidParams("cursor", "not a cursor issued by this server");
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), "base64url").toString("utf8"));
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

/** A stable hash of everything that shapes the ranking: params minus page position, pin and side-band data. */
export function queryFingerprint(params: Readonly<Record<string, unknown>>): string {
  const { cursor: _cursor, indexVersion: _version, _meta: _sideBand, ...shaping } = params;
  return hash64(canonicalJson(shaping));
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
