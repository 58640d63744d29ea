/**
 * The in-memory state (./types.ts) every server uses unless told otherwise: right for one
 * process, and what each replica would hold alone without a shared store.
 */
import type { RequestId } from "../protocol/types.js";
import type { CancelRelay, RateLimit, RateLimiter, SessionRecord, SessionStore } from "./types.js";

const DEFAULT_MAX_SESSIONS = 10_000;

interface KeptRecord {
  readonly record: SessionRecord;
  expiresAt: number;
}

/**
 * At most `maxSessions` sessions. When full, expired sessions make room and otherwise the
 * new one is refused: evicting the least recently used would let anyone who can send
 * `initialize` log every other client out.
 */
export class MemorySessionStore implements SessionStore {
  /** Earliest expiry first: every touch moves a session to the end (one idle window for all). */
  readonly #byToken = new Map<string, KeptRecord>();
  readonly #maxSessions: number;

  constructor(maxSessions = DEFAULT_MAX_SESSIONS) {
    this.#maxSessions = maxSessions;
  }

  create(token: string, record: SessionRecord, idleMs: number): boolean {
    const now = Date.now();
    this.#forgetExpired(now);
    if (this.#byToken.size >= this.#maxSessions) return false;
    this.#byToken.set(token, { record, expiresAt: now + idleMs });
    return true;
  }

  touch(token: string, idleMs: number): SessionRecord | undefined {
    const kept = this.#byToken.get(token);
    if (kept === undefined) return undefined;
    const now = Date.now();
    this.#byToken.delete(token);
    if (kept.expiresAt < now) return undefined;
    kept.expiresAt = now + idleMs;
    this.#byToken.set(token, kept);
    return kept.record;
  }

  forget(token: string): void {
    this.#byToken.delete(token);
  }

  #forgetExpired(now: number): void {
    for (const [token, kept] of this.#byToken) {
      if (kept.expiresAt >= now) return;
      this.#byToken.delete(token);
    }
  }
}

/** One process: a cancel published here is delivered here. */
export class MemoryCancelRelay implements CancelRelay {
  readonly #subscribers: Array<(token: string, id: RequestId) => void> = [];

  publish(token: string, id: RequestId): void {
    for (const deliver of this.#subscribers) deliver(token, id);
  }

  subscribe(deliver: (token: string, id: RequestId) => void): void {
    this.#subscribers.push(deliver);
  }
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before the full ones (callers that came back to their limit) are dropped. */
const SWEEP_ABOVE_BUCKETS = 100_000;

/** One process: a token bucket per caller key, kept in a Map and swept of full buckets when it grows. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  take(key: string, cost: number, limit: RateLimit): number {
    const now = Date.now();
    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      if (this.#buckets.size >= SWEEP_ABOVE_BUCKETS) this.#sweep(now, limit);
      bucket = { tokens: limit.burst, at: now };
      this.#buckets.set(key, bucket);
    } else {
      bucket.tokens = refilled(bucket, now, limit);
      bucket.at = now;
    }
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return 0;
    }
    return Math.ceil(((cost - bucket.tokens) * 1000) / limit.perSecond);
  }

  #sweep(now: number, limit: RateLimit): void {
    for (const [key, bucket] of this.#buckets)
      if (refilled(bucket, now, limit) >= limit.burst) this.#buckets.delete(key);
  }
}

function refilled(bucket: Bucket, now: number, limit: RateLimit): number {
  return Math.min(limit.burst, bucket.tokens + ((now - bucket.at) * limit.perSecond) / 1000);
}
