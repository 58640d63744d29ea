/**
 * HTTP sessions (§5.2). Stateless (default): one shared session, implicitly initialized
 * at the advertised capabilities. Stateful: a successful `initialize` issues a token in
 * `result._meta.session` (and the RCP-Session response header) that later requests carry
 * in the RCP-Session header; `shutdown` ends the session. A stateful session keeps one
 * Connection across requests, so `notifications/cancel` posted separately reaches a request
 * still running in another exchange (§7.14), and ids are unique per session (§4.7).
 */
import { randomUUID } from "node:crypto";
import type { ServerCore } from "../core.js";
import { Connection } from "../connection.js";
import { isRecord } from "../paths.js";

export const SESSION_HEADER = "RCP-Session";

const DEFAULT_MAX_SESSIONS = 10_000;

export class HttpSessions {
  readonly #core: ServerCore;
  readonly #stateful: boolean;
  readonly #shared: Connection;
  /** In insertion order, so the first key is the oldest session. */
  readonly #byToken = new Map<string, Connection>();
  readonly #maxSessions: number;

  constructor(core: ServerCore, stateful: boolean, maxSessions = DEFAULT_MAX_SESSIONS) {
    this.#core = core;
    this.#stateful = stateful;
    this.#maxSessions = maxSessions;
    this.#shared = new Connection(core.newSession(!stateful));
  }

  /**
   * The connection a request runs on. Stateless: a fresh one per exchange (ids of different
   * clients never collide) over the shared implicit session. Stateful: the session's own,
   * or a fresh uninitialized one without a known token.
   */
  resolve(token: string | undefined, message: unknown): Connection {
    if (!this.#stateful) return new Connection(this.#shared.session);
    const known = token === undefined ? undefined : this.#byToken.get(token);
    if (known) return known;
    const connection = new Connection(this.#core.newSession());
    if (this.#role(message) === "initialize") connection.session.token = randomUUID();
    return connection;
  }

  /** After the reply: keep a newly initialized session, forget one that was shut down. */
  settle(connection: Connection, message: unknown): void {
    const token = connection.session.token;
    if (!this.#stateful || token === undefined) return;
    const role = this.#role(message);
    if (role === "initialize" && connection.session.initialized) {
      // Forgetting the oldest token leaves its in-flight requests to finish; later ones are -32001.
      if (this.#byToken.size >= this.#maxSessions) this.#byToken.delete(this.#byToken.keys().next().value!);
      this.#byToken.set(token, connection);
    } else if (role === "shutdown") this.#byToken.delete(token);
  }

  headers(connection: Connection, base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    const { token, initialized } = connection.session;
    if (!this.#stateful || token === undefined || !initialized) return base;
    return { ...base, [SESSION_HEADER.toLowerCase()]: token };
  }

  #role(message: unknown): string | undefined {
    return isRecord(message) && typeof message.method === "string"
      ? this.#core.lifecycleRole(message.method)
      : undefined;
  }
}
