/**
 * HTTP sessions (§5.2). Stateless (default): one shared session, implicitly initialized
 * at the advertised capabilities. Stateful: a successful `initialize` issues a token in
 * `result._meta.session` (and the RCP-Session response header) that later requests carry
 * in the RCP-Session header; `shutdown` ends the session. A stateful session keeps one
 * Connection across requests, so `notifications/cancel` posted separately reaches a request
 * still running in another exchange (§7.14), and ids are unique per session (§4.7).
 * Sessions are bounded in number and in idle time (§15.5): a forgotten token is just
 * unknown, so its next request runs uninitialized and gated methods answer -32001 (§13).
 */
import type { ServerCore } from "../core.js";
import { Connection } from "../connection.js";
import { isRecord } from "../paths.js";
import type { HttpOptions } from "./options.js";

export const SESSION_HEADER = "RCP-Session";

const DEFAULT_MAX_SESSIONS = 10_000;
const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

interface KeptSession {
  readonly connection: Connection;
  lastUsed: number;
}

export class HttpSessions {
  readonly #core: ServerCore;
  readonly #stateful: boolean;
  readonly #shared: Connection;
  /** Least recently used first: every use moves a session to the end. */
  readonly #byToken = new Map<string, KeptSession>();
  readonly #maxSessions: number;
  readonly #idleMs: number;

  constructor(core: ServerCore, options: HttpOptions) {
    this.#core = core;
    this.#stateful = options.sessions === "stateful";
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.#shared = new Connection(core.newSession(!this.#stateful));
  }

  /**
   * The connection a request runs on. Stateless: a fresh one per exchange (ids of different
   * clients never collide) over the shared implicit session. Stateful: the session's own,
   * or a fresh uninitialized one without a known (or still kept) token.
   */
  resolve(token: string | undefined, message: unknown): Connection {
    if (!this.#stateful) return new Connection(this.#shared.session);
    const now = Date.now();
    this.#forgetIdle(now);
    const known = token === undefined ? undefined : this.#byToken.get(token);
    if (known !== undefined && this.#isIdle(known, now)) this.#byToken.delete(token!);
    else if (known !== undefined) {
      this.#touch(token!, known, now);
      return known.connection;
    }
    const connection = new Connection(this.#core.newSession());
    if (this.#role(message) === "initialize") connection.session.token = crypto.randomUUID();
    return connection;
  }

  /** After the reply: keep a newly initialized session, forget one that was shut down. */
  settle(connection: Connection, message: unknown): void {
    const token = connection.session.token;
    if (!this.#stateful || token === undefined) return;
    const role = this.#role(message);
    if (role === "initialize" && connection.session.initialized && !this.#byToken.has(token)) {
      // Forgetting the oldest token leaves its in-flight requests to finish; later ones are -32001.
      if (this.#byToken.size >= this.#maxSessions) this.#byToken.delete(this.#byToken.keys().next().value!);
      this.#byToken.set(token, { connection, lastUsed: Date.now() });
    } else if (role === "shutdown") this.#byToken.delete(token);
    else {
      const kept = this.#byToken.get(token);
      if (kept?.connection === connection) this.#touch(token, kept, Date.now());
    }
  }

  headers(connection: Connection, base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const { token, initialized } = connection.session;
    if (!this.#stateful || token === undefined || !initialized) return base;
    return { ...base, [SESSION_HEADER.toLowerCase()]: token };
  }

  #touch(token: string, kept: KeptSession, now: number): void {
    kept.lastUsed = now;
    this.#byToken.delete(token);
    this.#byToken.set(token, kept);
  }

  /** Drops sessions idle past the limit, oldest first; one with a request still running is busy, not idle. */
  #forgetIdle(now: number): void {
    for (const [token, kept] of this.#byToken) {
      if (!this.#isIdle(kept, now)) return;
      this.#byToken.delete(token);
    }
  }

  #isIdle(kept: KeptSession, now: number): boolean {
    return now - kept.lastUsed > this.#idleMs && kept.connection.inFlight.size === 0;
  }

  #role(message: unknown): string | undefined {
    return isRecord(message) && typeof message.method === "string"
      ? this.#core.lifecycleRole(message.method)
      : undefined;
  }
}
