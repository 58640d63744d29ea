/**
 * A Session over HTTP (§5.2): each message is one POST to `<base>/<method>` (a batch to the
 * base), the answer is the body: one JSON response, an SSE stream of frames, or nothing
 * (204 or an empty body). A stateful server's session token is replayed in `RCP-Session`.
 */
import { isFrame, isResponse, type Exchange, type Frame, type HttpView, type Ledger, type Session } from "./session.js";
import type { HttpReply, HttpWire } from "./wire/http-wire.js";
import { readSse } from "./wire/sse.js";

export const SESSION_HEADER = "RCP-Session";

export class HttpSession implements Session {
  readonly transport = "http";
  /** Set once an initialize result carried `_meta.session` (a stateful server). */
  token: string | undefined;

  constructor(
    readonly wire: HttpWire,
    private readonly ledger: Ledger,
  ) {}

  async call(frame: Frame, options: { stream?: boolean } = {}): Promise<Exchange> {
    const method = typeof frame.method === "string" ? frame.method : "";
    const view = await this.post(method, JSON.stringify(frame), frame, options.stream === true);
    const frames = framesOf(view);
    const index = frames.findIndex((value) => isResponse(value) && value.id === frame.id);
    const response = index < 0 ? undefined : (frames[index] as Frame);
    const before = index < 0 ? frames : frames.slice(0, index);
    const notifications = before.filter(
      (value): value is Frame => isFrame(value) && typeof value.method === "string" && !("id" in value),
    );
    const session = (response?.result as { _meta?: { session?: unknown } } | undefined)?._meta?.session;
    if (method === "initialize" && typeof session === "string") this.token = session;
    return {
      ...(response === undefined ? {} : { response }),
      notifications,
      strays: frames.filter((value) => value !== response && !notifications.includes(value as Frame)),
      http: view,
    };
  }

  async unanswered(payload: unknown): Promise<{ answers: unknown[]; http: HttpView }> {
    const method = isFrame(payload) && typeof payload.method === "string" ? payload.method : "";
    const http = await this.post(method, JSON.stringify(payload), payload, false);
    return { answers: framesOf(http), http };
  }

  async batch(frames: readonly unknown[]): Promise<{ reply: unknown; http: HttpView }> {
    const http = await this.post("", JSON.stringify(frames), frames, false);
    return { reply: parseBody(http), http };
  }

  async raw(text: string): Promise<{ answers: unknown[]; http: HttpView }> {
    const http = await this.post("ping", text, undefined, false);
    return { answers: framesOf(http), http };
  }

  async close(): Promise<void> {}

  /** POSTs and records what came back; `stream` sends `Accept: text/event-stream`. */
  async post(
    method: string,
    body: string,
    payload: unknown,
    stream: boolean,
    extra: Record<string, string> = {},
  ): Promise<HttpView> {
    this.ledger.noteSent(payload);
    const headers: Record<string, string> = {
      accept: stream ? "text/event-stream" : "application/json",
      ...(this.token === undefined ? {} : { [SESSION_HEADER]: this.token }),
      ...extra,
    };
    const view = toView(await this.wire.post({ method }, body, headers));
    this.ledger.received.push(...framesOf(view));
    return view;
  }
}

export function toView(reply: HttpReply): HttpView {
  const contentType = reply.headers.get("content-type") ?? "";
  return {
    status: reply.status,
    contentType,
    body: reply.body,
    ended: reply.ended,
    ...(contentType.startsWith("text/event-stream") ? { sse: readSse(reply.body) } : {}),
  };
}

/** The frames of a body: each SSE event, or the one JSON value (a batch's members), or none. */
export function framesOf(view: HttpView): unknown[] {
  if (view.sse !== undefined) return view.sse.frames;
  const parsed = parseBody(view);
  if (parsed === undefined) return [];
  return [parsed];
}

function parseBody(view: HttpView): unknown {
  if (view.body.trim() === "") return undefined;
  try {
    return JSON.parse(view.body) as unknown;
  } catch {
    return view.body;
  }
}
