/**
 * The client-side twin of `rcp-gen conform`: every message a client sends the mock is checked
 * strictly against the schema and the session rules a client must keep (§4.1 envelope, §4.4
 * `_meta`, §4.7 ids in flight and nothing before the `initialize` answer, §9 progress tokens,
 * §7.14 cancels, §13 initialize first, §14.4 nothing unadvertised). The server itself answers
 * each violation as the spec says (the runtime does); this records what the client did wrong,
 * with the section and the answer it got. Params are checked as sent, before the runtime's
 * aliases and null-dropping make a lenient call work, so a client relying on them is named.
 */
import type { InboundConnection, ProtocolDescriptor, RequestId } from "@rcp-gen/runtime";
import { firstIssueLine } from "@rcp-gen/runtime/testing";
import { isJsonObject } from "../load/json-pointer.js";

export interface ClientViolation {
  /** What was broken, e.g. `session.initialize-first`. */
  readonly rule: string;
  /** The spec section that says so, e.g. `§13`. */
  readonly section: string;
  readonly message: string;
  /** The method of the offending message, when it named one. */
  readonly method?: string;
  readonly id?: RequestId;
  /** How the server answered: `error -32001`, `result`, or `none` (a notification, ignored). */
  answer: string;
  /** Counts connections from 1, in the order they sent their first message. */
  readonly connection: number;
}

export interface ClientReport {
  /** Messages received (a batch's members count one each). */
  readonly messages: number;
  readonly violations: readonly ClientViolation[];
}

interface ConnectionState {
  readonly number: number;
  /** Request id -> its progress token, while unanswered. */
  readonly inFlight: Map<RequestId, RequestId | undefined>;
  initializePending: boolean;
}

/** Sections the runtime's error messages do not name, by code. */
const ANSWER_RULES: Readonly<Record<number, { rule: string; section: string }>> = {
  [-32600]: { rule: "envelope.invalid-request", section: "§4.1" },
  [-32601]: { rule: "request.unknown-method", section: "§14.4" },
  [-32602]: { rule: "params.invalid", section: "§12" },
  [-32001]: { rule: "session.initialize-first", section: "§13" },
  [-32003]: { rule: "request.unadvertised-method", section: "§14.4" },
  [-32005]: { rule: "request.unadvertised-option", section: "§14.4" },
};

export class ClientChecks {
  readonly #protocol: ProtocolDescriptor;
  readonly #connections = new WeakMap<object, ConnectionState>();
  readonly #violations: ClientViolation[] = [];
  readonly #onViolation: ((violation: ClientViolation) => void) | undefined;
  #connectionCount = 0;
  #messages = 0;

  constructor(protocol: ProtocolDescriptor, onViolation?: (violation: ClientViolation) => void) {
    this.#protocol = protocol;
    this.#onViolation = onViolation;
  }

  report(): ClientReport {
    return { messages: this.#messages, violations: [...this.#violations] };
  }

  /** The runtime's `observeInbound`: checks `message` now, and what the server answered when it does. */
  observe = (message: unknown, connection: InboundConnection): ((answer: string | undefined) => void) => {
    const state = this.#stateOf(connection);
    const members = Array.isArray(message) ? message : [message];
    const found: ClientViolation[] = [];
    const ids: RequestId[] = [];
    const added: RequestId[] = [];
    for (const member of members) {
      this.#messages++;
      const violation = this.#check(member, connection, state, ids, added);
      if (violation !== undefined) found.push(violation);
    }
    return (answer) => {
      const replies = parseAnswer(answer);
      for (const id of added) {
        state.inFlight.delete(id);
        if (members.some((member) => isJsonObject(member) && member.method === "initialize" && member.id === id))
          state.initializePending = false;
      }
      for (const violation of found) {
        if (violation.id !== undefined) violation.answer = describe(replies.get(violation.id));
        this.#record(violation);
      }
      for (const id of ids) {
        const error = replies.get(id)?.error;
        if (error !== undefined && !found.some((violation) => violation.id === id))
          this.#fromAnswer(members, id, error, state);
      }
    };
  };

  #record(violation: ClientViolation): void {
    this.#violations.push(violation);
    this.#onViolation?.(violation);
  }

  #stateOf(connection: object): ConnectionState {
    let state = this.#connections.get(connection);
    if (state === undefined) {
      state = { number: ++this.#connectionCount, inFlight: new Map(), initializePending: false };
      this.#connections.set(connection, state);
    }
    return state;
  }

  /** The first thing wrong with one message, before the server acts on it; its id goes to `ids`, and to `added` when it is now in flight. */
  #check(
    message: unknown,
    connection: InboundConnection,
    state: ConnectionState,
    ids: RequestId[],
    added: RequestId[],
  ): ClientViolation | undefined {
    const at = (rule: string, section: string, text: string, extra: { method?: string; id?: RequestId } = {}) => ({
      rule,
      section,
      message: text,
      ...extra,
      answer: "none",
      connection: state.number,
    });
    if (!isJsonObject(message)) return at("envelope.not-an-object", "§4.1", "a message must be a JSON object");
    const { id, method, params } = message;
    const hasId = typeof id === "string" || typeof id === "number";
    if (hasId) ids.push(id);
    const named = { ...(typeof method === "string" ? { method } : {}), ...(hasId ? { id } : {}) };
    if (message.jsonrpc !== "2.0") return at("envelope.jsonrpc", "§4.1", 'jsonrpc must be "2.0"', named);
    if (typeof method !== "string") return at("envelope.method", "§4.1", "method must be a string", named);
    if ("id" in message && !hasId)
      return at("envelope.id", "§4.7", "a request id must be a string or a number, never null", named);
    if (params !== undefined && !isJsonObject(params))
      return at("envelope.params", "§4.1", "params must be an object", named);
    const body = params ?? {};
    if (!hasId) return this.#checkNotification(method, body, state, at);

    const descriptor = this.#protocol.methods[method];
    if (descriptor === undefined) return undefined; // answered -32601 (or -32600 for a notification's name)
    if (state.initializePending && method !== "initialize")
      return at("session.wait-for-initialize", "§4.7", `${method} sent before the initialize answer arrived`, named);
    const wasInFlight = state.inFlight.has(id);
    const token = isJsonObject(body._meta) ? body._meta.progressToken : undefined;
    const tokenTaken =
      (typeof token === "string" || typeof token === "number") &&
      [...state.inFlight.values()].some((taken) => taken === token);
    if (!wasInFlight) {
      state.inFlight.set(id, typeof token === "string" || typeof token === "number" ? token : undefined);
      added.push(id);
    }
    if (method === "initialize" && !connection.session.initialized && !connection.session.implicit)
      state.initializePending = true;
    if (wasInFlight) return at("request.id-in-flight", "§4.7", `id ${JSON.stringify(id)} is already in flight`, named);
    if (tokenTaken)
      return at(
        "progress.token-reused",
        "§9",
        `progressToken ${JSON.stringify(token)} is already in use by a request in flight`,
        named,
      );
    if (!descriptor.params(body)) {
      return at("params.schema", descriptor.spec ?? "§12", firstIssueLine(descriptor.params, "params"), named);
    }
    return undefined;
  }

  #checkNotification(
    method: string,
    params: Record<string, unknown>,
    state: ConnectionState,
    at: (rule: string, section: string, text: string, extra?: { method?: string }) => ClientViolation,
  ): ClientViolation | undefined {
    const descriptor = this.#protocol.notifications[method];
    if (descriptor === undefined) return undefined; // unknown notifications are ignored (§4.5)
    if (descriptor.direction === "server")
      return at("notification.server-only", descriptor.spec ?? "§4.5", `${method} is sent by servers, not clients`, {
        method,
      });
    if (!descriptor.params(params))
      return at("notification.params", descriptor.spec ?? "§4.5", firstIssueLine(descriptor.params, "params"), {
        method,
      });
    const target = params.id;
    if (
      descriptor.role === "cancel" &&
      (typeof target === "string" || typeof target === "number") &&
      !state.inFlight.has(target)
    )
      return at(
        "cancel.unknown-id",
        "§7.14",
        `cancel for ${JSON.stringify(target)}, which is not in flight (ignored)`,
        { method },
      );
    return undefined;
  }

  #fromAnswer(
    members: unknown[],
    id: RequestId,
    error: { code?: unknown; message?: unknown },
    state: ConnectionState,
  ): void {
    const known = typeof error.code === "number" ? ANSWER_RULES[error.code] : undefined;
    if (known === undefined) return;
    const member = members.find((entry) => isJsonObject(entry) && entry.id === id) as
      Record<string, unknown> | undefined;
    const method = typeof member?.method === "string" ? member.method : undefined;
    const text = typeof error.message === "string" ? error.message : "";
    const section =
      /§[\d.]+/.exec(text)?.[0] ??
      (known.rule === "params.invalid" && method !== undefined ? this.#protocol.methods[method]?.spec : undefined) ??
      known.section;
    this.#record({
      rule: known.rule,
      section,
      message: text,
      ...(method === undefined ? {} : { method }),
      id,
      answer: `error ${String(error.code)}`,
      connection: state.number,
    });
  }
}

interface ReplyFrame {
  readonly result?: unknown;
  readonly error?: { code?: unknown; message?: unknown };
}

function parseAnswer(answer: string | undefined): Map<unknown, ReplyFrame> {
  const replies = new Map<unknown, ReplyFrame>();
  if (answer === undefined) return replies;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return replies;
  }
  for (const frame of Array.isArray(parsed) ? parsed : [parsed]) if (isJsonObject(frame)) replies.set(frame.id, frame);
  return replies;
}

function describe(reply: ReplyFrame | undefined): string {
  if (reply === undefined) return "none";
  if (reply.error !== undefined) return `error ${String(reply.error.code)}`;
  return "result";
}
