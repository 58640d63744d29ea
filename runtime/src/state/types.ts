/**
 * The state a server can share between processes (§5.2, §7.14, §15.5): stateful HTTP
 * sessions, the relay that carries `notifications/cancel` to the replica running the
 * request, and the per-caller rate limiter. Each defaults to an in-memory implementation
 * (./memory.ts), so one process behaves as it always did; `@rcp-gen/runtime/redis` shares
 * all three between replicas behind a load balancer. Every method may answer synchronously
 * (in memory) or with a promise (over the network); a rejected promise means the store is
 * unreachable, and the server decides per feature what to do (docs/deployment.md).
 */

/** A JSON-RPC request id (§4.7). Spelled out here: ../protocol/types.ts names this module's types, so it cannot be imported from. */
type RequestId = string | number;

/** What a stateful session must carry to another replica: its `initialize` outcome (§13.2). */
export interface SessionRecord {
  /** The negotiated protocol version (§7.1). */
  readonly protocolVersion: number;
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  readonly client?: Readonly<{ name: string; version: string }>;
  /** The log level asked for in `initialize` `_meta.logLevel` (§17.1). */
  readonly logLevel?: string;
}

/** Where stateful HTTP sessions live (§5.2): in memory by default, on Redis to share them between replicas. */
export interface SessionStore {
  /**
   * Keeps a newly initialized session for `idleMs`. False when the store refuses it (full):
   * the `initialize` is then answered -32011, and no live session is dropped to make room.
   */
  create(token: string, record: SessionRecord, idleMs: number): boolean | Promise<boolean>;
  /** The session's record with its idle window restarted; undefined when unknown or expired. */
  touch(token: string, idleMs: number): SessionRecord | undefined | Promise<SessionRecord | undefined>;
  /** Ends a session (`shutdown`). */
  forget(token: string): void | Promise<void>;
}

/** Carries a cancel for a request of a session to whichever process runs it (§7.14). */
export interface CancelRelay {
  /** Sends the cancel to every process, this one included. */
  publish(token: string, id: RequestId): void | Promise<void>;
  /** Starts delivering published cancels; called once per HTTP endpoint that keeps sessions. */
  subscribe(deliver: (token: string, id: RequestId) => void): void | Promise<void>;
}

/** A token bucket per caller (§15.5): `burst` requests at once, refilled at `perSecond`. */
export interface RateLimit {
  readonly burst: number;
  readonly perSecond: number;
}

/** Decides whether a caller may make another request now (§15.5): in memory by default, on Redis across replicas. */
export interface RateLimiter {
  /** Takes `cost` tokens from `key`'s bucket: 0 when allowed, else the milliseconds until they are there. */
  take(key: string, cost: number, limit: RateLimit): number | Promise<number>;
}

/** Where a server keeps what outlives one request; each part left out is kept in memory. */
export interface ServerState {
  readonly sessions?: SessionStore;
  readonly cancels?: CancelRelay;
  readonly rateLimiter?: RateLimiter;
}
