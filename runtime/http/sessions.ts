/**
 * HTTP sessions (§5.2). Stateless (default): one shared session, implicitly initialized
 * at the advertised capabilities. Stateful: a successful `initialize` issues a token in
 * `result._meta.session` (and the RCP-Session response header) that later requests carry
 * in the RCP-Session header; `shutdown` ends the session.
 */
import { randomUUID } from "node:crypto";
import type { ServerCore } from "../core.js";
import type { Session } from "../session.js";
import { isRecord } from "../paths.js";

export const SESSION_HEADER = "RCP-Session";

export class HttpSessions {
  readonly #core: ServerCore;
  readonly #stateful: boolean;
  readonly #shared: Session;
  readonly #byToken = new Map<string, Session>();

  constructor(core: ServerCore, stateful: boolean) {
    this.#core = core;
    this.#stateful = stateful;
    this.#shared = core.newSession(!stateful);
  }

  /** The session a request runs in; without a known token, a fresh uninitialized one. */
  resolve(token: string | undefined, message: unknown): Session {
    if (!this.#stateful) return this.#shared;
    const known = token === undefined ? undefined : this.#byToken.get(token);
    if (known) return known;
    const session = this.#core.newSession();
    if (this.#role(message) === "initialize") session.token = randomUUID();
    return session;
  }

  /** After the reply: keep a newly initialized session, forget one that was shut down. */
  settle(session: Session, message: unknown): void {
    if (!this.#stateful || session.token === undefined) return;
    const role = this.#role(message);
    if (role === "initialize" && session.initialized) this.#byToken.set(session.token, session);
    else if (role === "shutdown") this.#byToken.delete(session.token);
  }

  headers(session: Session, base: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
    if (!this.#stateful || session.token === undefined || !session.initialized) return base;
    return { ...base, [SESSION_HEADER.toLowerCase()]: session.token };
  }

  #role(message: unknown): string | undefined {
    return isRecord(message) && typeof message.method === "string" ? this.#core.lifecycleRole(message.method) : undefined;
  }
}
