/**
 * HTTP sessions (§5.2). Stateless (default): one shared session, implicitly initialized
 * at the advertised capabilities. Stateful: a successful `initialize` issues a token in
 * `result._meta.session` (and the RCP-Session response header) that later requests carry
 * in the RCP-Session header; `shutdown` ends the session.
 *
 * The session store (../state/types.ts; in memory by default) says which tokens are live and
 * what each negotiated, so any replica can take a session up. This process keeps one
 * Connection per session it serves, so ids stay unique within it (§4.7) and a
 * `notifications/cancel` posted separately reaches a request running in another exchange;
 * a cancel for a request this process is not running goes through the cancel relay to the
 * one that is (§7.14). Sessions end after `sessionIdleMs` unused; a forgotten token is just
 * unknown, so its next request runs uninitialized and gated methods answer -32001 (§13).
 */
import type { ServerCore } from "../server/core.js";
import type { RequestId } from "../protocol/types.js";
import { CANCELLED, Connection } from "../server/connection.js";
import { ErrorCode, type ErrorObject } from "../protocol/errors.js";
import { isRecord } from "../protocol/dotted-paths.js";
import { MemoryCancelRelay, MemorySessionStore } from "../state/memory.js";
import type { CancelRelay, SessionRecord, SessionStore } from "../state/types.js";
import type { HttpOptions } from "./options.js";

export const SESSION_HEADER = "RCP-Session";

const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Retry hint when the store holds its maximum of sessions or cannot be reached (§12.2). */
const SESSION_RETRY_AFTER_MS = 1000;

interface KeptSession {
  readonly connection: Connection;
  lastUsed: number;
}

export class HttpSessions {
  readonly stateful: boolean;
  readonly #core: ServerCore;
  readonly #shared: Connection;
  readonly #store: SessionStore;
  readonly #relay: CancelRelay;
  readonly #relayIsShared: boolean;
  /**
   * The sessions this process serves, least recently used first. Only a cache of the store:
   * one dropped is rebuilt from its record on the next request, so it is bounded freely.
   */
  readonly #local = new Map<string, KeptSession>();
  readonly #maxLocal: number;
  readonly #idleMs: number;

  constructor(core: ServerCore, options: HttpOptions) {
    this.#core = core;
    this.stateful = options.sessions === "stateful";
    this.#maxLocal = options.maxSessions ?? DEFAULT_MAX_LOCAL;
    this.#idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#shared = new Connection(core.newSession(!this.stateful));
    const state = core.state;
    this.#relayIsShared = state.cancels !== undefined;
    this.#store = state.sessions ?? new MemorySessionStore(options.maxSessions);
    this.#relay = state.cancels ?? new MemoryCancelRelay();
    if (this.stateful) {
      const subscribed = this.#relay.subscribe((token, id) => this.#deliverCancel(token, id));
      if (subscribed instanceof Promise) subscribed.catch((error) => this.#core.reportOutage("cancel relay", error));
    }
  }

  /** Stateless: a fresh connection per exchange (ids of different clients never collide) over the shared implicit session. */
  stateless(): Connection {
    return new Connection(this.#shared.session);
  }

  /**
   * Stateful: the session's connection, or a fresh uninitialized one for an unknown token (an
   * `initialize` gets a new token). An error when the store cannot say and this process does
   * not hold the session: no request runs under a session that may have ended.
   */
  async resolve(token: string | undefined, message: unknown): Promise<Connection | ErrorObject> {
    if (token !== undefined) {
      const now = Date.now();
      this.#forgetIdle(now);
      let record: SessionRecord | undefined;
      try {
        const touched = this.#store.touch(token, this.#idleMs);
        record = touched instanceof Promise ? await touched : touched;
      } catch (error) {
        this.#core.reportOutage("session store", error);
        const kept = this.#local.get(token);
        if (kept === undefined) return unavailable("the session store cannot be reached");
        this.#use(token, kept, now);
        return kept.connection;
      }
      if (record !== undefined) return this.#connectionOf(token, record, now);
      const kept = this.#local.get(token);
      this.#local.delete(token);
      // A request still running here keeps its session from going idle: back into the store.
      if (kept !== undefined && kept.connection.inFlight.size > 0 && !kept.connection.closing) {
        const recreated = await this.#recreate(token, kept);
        if (recreated) return kept.connection;
      }
    }
    const connection = new Connection(this.#core.newSession());
    if (this.#role(message) === "initialize") connection.session.token = crypto.randomUUID();
    return connection;
  }

  /**
   * After the reply: store a newly initialized session, forget one that was shut down. An
   * error replaces the `initialize` answer when the store refused the session.
   */
  async settle(connection: Connection, message: unknown): Promise<ErrorObject | undefined> {
    const token = connection.session.token;
    if (token === undefined) return undefined;
    const role = this.#role(message);
    if (role === "initialize" && connection.session.initialized && !this.#local.has(token)) {
      try {
        const created = this.#store.create(token, connection.session.record(), this.#idleMs);
        if (!(created instanceof Promise ? await created : created)) {
          return {
            code: ErrorCode.RateLimited,
            message: "Rate limited: the server holds its maximum of sessions; retry later",
            data: { retryable: true, retryAfterMs: SESSION_RETRY_AFTER_MS },
          };
        }
      } catch (error) {
        this.#core.reportOutage("session store", error);
        return unavailable("the session store cannot be reached");
      }
      this.#keep(token, connection, Date.now());
    } else if (role === "shutdown") {
      this.#local.delete(token);
      try {
        await this.#store.forget(token);
      } catch (error) {
        // The token then lives until its idle window ends in the store.
        this.#core.reportOutage("session store", error);
      }
    } else {
      const kept = this.#local.get(token);
      if (kept?.connection === connection) this.#use(token, kept, Date.now());
    }
    return undefined;
  }

  async #recreate(token: string, kept: KeptSession): Promise<boolean> {
    try {
      const created = this.#store.create(token, kept.connection.session.record(), this.#idleMs);
      if (!(created instanceof Promise ? await created : created)) return false;
    } catch (error) {
      this.#core.reportOutage("session store", error);
      return false;
    }
    this.#local.set(token, kept);
    kept.lastUsed = Date.now();
    return true;
  }

  headers(connection: Connection, base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const { token, initialized } = connection.session;
    if (!this.stateful || token === undefined || !initialized) return base;
    return { ...base, [SESSION_HEADER.toLowerCase()]: token };
  }

  #connectionOf(token: string, record: SessionRecord, now: number): Connection {
    const kept = this.#local.get(token);
    if (kept !== undefined) {
      this.#use(token, kept, now);
      return kept.connection;
    }
    const connection = new Connection(this.#core.newSession());
    connection.session.resume(token, record);
    this.#keep(token, connection, now);
    return connection;
  }

  #keep(token: string, connection: Connection, now: number): void {
    connection.cancelElsewhere = (id) => this.#publishCancel(token, id);
    this.#local.set(token, { connection, lastUsed: now });
    if (this.#local.size > this.#maxLocal) this.#shrinkLocal();
  }

  #use(token: string, kept: KeptSession, now: number): void {
    kept.lastUsed = now;
    this.#local.delete(token);
    this.#local.set(token, kept);
  }

  /** Past the cache's size, the least recently used sessions without a request running here. */
  #shrinkLocal(): void {
    for (const [token, kept] of this.#local) {
      if (this.#local.size <= this.#maxLocal) return;
      if (kept.connection.inFlight.size === 0) this.#local.delete(token);
    }
  }

  /** Drops sessions idle past the limit, oldest first; one with a request still running is busy, not idle. */
  #forgetIdle(now: number): void {
    for (const [token, kept] of this.#local) {
      if (now - kept.lastUsed <= this.#idleMs || kept.connection.inFlight.size > 0) return;
      this.#local.delete(token);
    }
  }

  #publishCancel(token: string, id: RequestId): void {
    // In memory the session's only connection is this one: nothing runs elsewhere.
    if (!this.#relayIsShared) return;
    try {
      const published = this.#relay.publish(token, id);
      if (published instanceof Promise) published.catch((error) => this.#core.reportOutage("cancel relay", error));
    } catch (error) {
      this.#core.reportOutage("cancel relay", error);
    }
  }

  #deliverCancel(token: string, id: RequestId): void {
    this.#local.get(token)?.connection.inFlight.get(id)?.abort(CANCELLED);
  }

  #role(message: unknown): string | undefined {
    return isRecord(message) && typeof message.method === "string"
      ? this.#core.lifecycleRole(message.method)
      : undefined;
  }
}

/** Sessions this process keeps connections for, by default: the in-memory store's maximum too. */
const DEFAULT_MAX_LOCAL = 10_000;

function unavailable(why: string): ErrorObject {
  return {
    code: ErrorCode.BackendUnavailable,
    message: `Backend unavailable: ${why}`,
    data: { retryable: true, retryAfterMs: SESSION_RETRY_AFTER_MS },
  };
}
