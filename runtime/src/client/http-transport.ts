/**
 * HTTP client transport (§5.2): one `POST <base>/<method>` per frame, over fetch or a host's
 * own exchange (http-exchange.ts).
 * A call that wants progress or logs sends `Accept: text/event-stream` and reads the SSE
 * frames as they come (§9); otherwise the body is one buffered JSON response. Aborting a
 * call aborts its fetch, which is how HTTP cancels. A session token issued in a result's
 * `_meta.session` is replayed in the `RCP-Session` header. A body or an SSE event above
 * `maxMessageBytes` is never buffered whole: the call fails with -32013 and its request is
 * aborted, which closes that connection.
 */
import { createParser } from "eventsource-parser";
import type { RequestId } from "../protocol/types.js";
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { readBounded, type ChunkReader } from "../framing/bounded-body.js";
import { fetchExchange, type HttpExchange, type HttpReply } from "./http-exchange.js";
import { errorForStatus } from "./http-status.js";
import { RESUMABLE_CAPABILITY, RESUMABLE_HEADER } from "../resume/wire.js";
import {
  DEFAULT_CLIENT_MAX_MESSAGE_BYTES,
  parseFrame,
  TransportError,
  type ClientTransport,
  type ClientTransportSink,
  type OutgoingFrame,
  type SendOptions,
} from "./transport.js";

/** Where and how the HTTP client transport posts: the base URL, headers, the fetch or exchange, SSE and the message limit. */
export interface HttpClientTransportOptions {
  /** The RCP base URL, e.g. `http://127.0.0.1:8000/rcp`; each method is POSTed below it. */
  url: string;
  /** Sent with every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** The fetch implementation to use; the global one when omitted. */
  fetch?: typeof globalThis.fetch;
  /**
   * How each POST is carried, instead of fetch: e.g. `nodeHttpExchange()` from
   * `@rcp-gen/runtime/node` (kept-alive sockets). `fetch` is ignored when this is given.
   */
  exchange?: HttpExchange;
  /** Ask for SSE when a call wants progress or logs. Default true. */
  sse?: boolean;
  /**
   * Largest response read: a buffered body in bytes, one SSE event in characters. Default
   * 64 MiB (DEFAULT_CLIENT_MAX_MESSAGE_BYTES).
   */
  maxMessageBytes?: number;
  /**
   * Resume a stream cut mid-call when the server advertised `x-rcp-resumable`
   * (docs/resumable-streams.md): the call goes on as one stream, and fails as before only
   * when every attempt has. `false` never asks for resumable streams. Default on.
   */
  resume?: ResumeOptions | false;
}

/** How the client reconnects to a resumable stream. */
export interface ResumeOptions {
  /** Reconnects in a row that may fail before the call does. Default 5. */
  maxAttempts?: number;
  /** The first wait; each failed attempt doubles it, with jitter. Default the server's `retry:` hint, else 500 ms. */
  initialDelayMs?: number;
  /** The longest wait between attempts. Default 5000 ms. */
  maxDelayMs?: number;
  /** Called before each reconnect: the call's method and request id, the attempt (from 1), and the last frame it got. */
  onReconnect?: (reconnect: { method: string; id: RequestId; attempt: number; lastEventId: string }) => void;
}

/** Where a resumable call's stream stands: its id and the last frame delivered, and the server's `retry:` hint. */
interface StreamCursor {
  stream?: string;
  seq: number;
  retryMs?: number;
}

const DEFAULT_RESUME_ATTEMPTS = 5;
const DEFAULT_RESUME_DELAY_MS = 500;
const DEFAULT_RESUME_MAX_DELAY_MS = 5000;

/** Decodes whole bodies only (never `stream: true`), so one decoder serves every response. */
const UTF8 = new TextDecoder();

/** The HTTP header that carries a stateful session's id (§5.2). */
export const SESSION_HEADER = "RCP-Session";

/** The client transport over HTTP (§5.2); made by `httpClientTransport`. */
export class HttpClientTransport implements ClientTransport {
  readonly cancellation = "abort";
  readonly #base: string;
  readonly #options: HttpClientTransportOptions;
  readonly #limit: number;
  readonly #exchange: HttpExchange;
  readonly #inFlight = new Set<AbortController>();
  #sink: ClientTransportSink | undefined;
  #session: string | undefined;
  #closed = false;
  /** Set once the server advertised resumable streams and this client may use them. */
  #resumable = false;

  constructor(options: HttpClientTransportOptions) {
    this.#options = options;
    this.#base = options.url.replace(/\/+$/, "");
    this.#limit = options.maxMessageBytes ?? DEFAULT_CLIENT_MAX_MESSAGE_BYTES;
    this.#exchange = options.exchange ?? fetchExchange(options.fetch);
  }

  start(sink: ClientTransportSink): Promise<void> {
    this.#sink = sink;
    return Promise.resolve();
  }

  async send(frame: OutgoingFrame, options: SendOptions = {}): Promise<void> {
    if (this.#closed) throw new TransportError("Transport closed");
    // One AbortSignal per exchange, each costing microseconds to make in Node 20: the caller's
    // when it passes one (the caller then ends it on close, as BaseClient does), else one of
    // this transport's own, which close() aborts.
    const own = options.signal === undefined ? new AbortController() : undefined;
    const wantsEvents = "id" in frame && options.stream === true && this.#options.sse !== false;
    const cursor: StreamCursor | undefined = wantsEvents && this.#resumable ? { seq: 0 } : undefined;
    const headers = this.#headers(wantsEvents, options.headers);
    if (cursor !== undefined) headers[RESUMABLE_HEADER] = "1";
    const signal = options.signal ?? own!.signal;
    if (own !== undefined) this.#inFlight.add(own);
    const cancel = cursor === undefined ? undefined : () => this.#cancelStream(cursor, options.headers);
    if (cancel !== undefined) signal.addEventListener("abort", cancel, { once: true });
    try {
      try {
        const response = await this.#exchange({
          url: `${this.#base}/${frame.method}`,
          headers,
          body: JSON.stringify(frame),
          signal,
        });
        if ("id" in frame) await this.#readResponse(frame.id, response, cursor);
        else await finishNotification(response);
      } catch (error) {
        const failure = this.#failure(frame.method, error);
        if (cursor?.stream === undefined || signal.aborted || failure instanceof RcpError || !("id" in frame))
          throw failure;
        await this.#resumeCall(frame.method, frame.id, cursor, failure, { signal, headers: options.headers });
      }
    } finally {
      if (cancel !== undefined) signal.removeEventListener("abort", cancel);
      if (own !== undefined) this.#inFlight.delete(own);
    }
  }

  /** The error a call fails with today when its exchange does: RCP and transport errors as they are, others wrapped. */
  #failure(method: string, error: unknown): Error {
    if (error instanceof RcpError || error instanceof TransportError) return error;
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return new TransportError(`POST ${this.#base}/${method} failed: ${cause}`, { cause: error });
  }

  /**
   * Reconnects to a cut resumable stream with `Last-Event-ID` (docs/resumable-streams.md):
   * frames already delivered are skipped by number, so the caller sees one stream. A reconnect
   * that delivers something restarts the count of attempts; a stream the server no longer has
   * (404) or too many failures in a row fail the call with the error the cut gave.
   */
  async #resumeCall(
    method: string,
    id: RequestId,
    cursor: StreamCursor,
    failure: Error,
    { signal, headers: perCall }: { signal: AbortSignal; headers: SendOptions["headers"] },
  ): Promise<void> {
    const settings = this.#options.resume === false ? {} : (this.#options.resume ?? {});
    const maxAttempts = settings.maxAttempts ?? DEFAULT_RESUME_ATTEMPTS;
    const maxDelay = settings.maxDelayMs ?? DEFAULT_RESUME_MAX_DELAY_MS;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const base = settings.initialDelayMs ?? cursor.retryMs ?? DEFAULT_RESUME_DELAY_MS;
      // Full jitter over the upper half: replicas are not hit by every client at once after a deploy.
      const delay = Math.min(maxDelay, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      if (!(await sleep(delay, signal))) throw failure;
      const lastEventId = `${cursor.stream}:${cursor.seq}`;
      settings.onReconnect?.({ method, id, attempt, lastEventId });
      const before = cursor.seq;
      let reply: HttpReply;
      try {
        reply = await this.#exchange({
          method: "GET",
          url: this.#base,
          headers: { ...this.#headers(true, perCall), "Last-Event-ID": lastEventId },
          body: "",
          signal,
        });
      } catch {
        if (signal.aborted) throw failure;
        continue;
      }
      if (reply.status !== 200 || reply.body === null) {
        await reply.body?.cancel().catch(() => {});
        // The stream is gone (expired, abandoned, never ours) or the request was malformed: no retry will help.
        if (reply.status === 404 || reply.status === 400) throw failure;
        continue;
      }
      try {
        if (await this.#readEvents(id, reply.body, cursor)) return;
      } catch (error) {
        if (error instanceof RcpError || signal.aborted) throw error instanceof RcpError ? error : failure;
      }
      if (cursor.seq > before) attempt = 0;
    }
    throw failure;
  }

  /** An explicit cancel of a resumable stream: the server aborts its handler at once rather than wait out the grace period. */
  #cancelStream(cursor: StreamCursor, perCall: SendOptions["headers"]): void {
    if (cursor.stream === undefined) return;
    this.#exchange({
      method: "DELETE",
      url: this.#base,
      headers: { ...this.#headers(false, perCall), "Last-Event-ID": `${cursor.stream}:${cursor.seq}` },
      body: "",
      signal: AbortSignal.timeout(DEFAULT_RESUME_MAX_DELAY_MS),
    })
      .then((reply) => reply.body?.cancel())
      .catch(() => {});
  }

  close(): Promise<void> {
    this.#closed = true;
    for (const exchange of this.#inFlight) exchange.abort(new TransportError("Transport closed"));
    return Promise.resolve();
  }

  #headers(wantsEvents: boolean, perCall: SendOptions["headers"]): Record<string, string> {
    // Copy, then assign: in Node 20 a spread followed by new keys costs microseconds per request.
    const headers: Record<string, string> = Object.assign({}, this.#options.headers, perCall);
    headers["Content-Type"] = "application/json";
    headers.Accept = wantsEvents ? "text/event-stream, application/json" : "application/json";
    if (this.#session !== undefined) headers[SESSION_HEADER] = this.#session;
    return headers;
  }

  /** Delivers the response frames; fails when the exchange carried no answer for `id`. */
  async #readResponse(id: RequestId, response: HttpReply, cursor?: StreamCursor): Promise<void> {
    if (response.status !== 200) {
      await response.body?.cancel();
      // §5.2: non-200 is a transport fault the JSON-RPC layer never saw.
      throw errorForStatus(response.status, response.header("retry-after"));
    }
    const isEvents = (response.header("content-type") ?? "").startsWith("text/event-stream");
    const answered =
      isEvents && response.body !== null
        ? await this.#readEvents(id, response.body, cursor)
        : this.#deliver(await this.#readBody(response), id);
    if (!answered) throw new TransportError(`HTTP response carried no JSON-RPC response for request ${String(id)}`);
  }

  /** A buffered JSON body, read no further than the limit. */
  async #readBody(response: HttpReply): Promise<string> {
    const body = response.body;
    if (Number(response.header("content-length")) > this.#limit) {
      await body?.cancel();
      throw this.#tooLarge("the body");
    }
    const bytes = body === null ? new Uint8Array(0) : await readBounded(body, this.#limit);
    if (bytes === null) throw this.#tooLarge("the body");
    return UTF8.decode(bytes);
  }

  /**
   * Reads SSE frames as they arrive and stops at the final response frame (§5.2). With a cursor
   * (a resumable stream) each frame's number is kept, and one already delivered is skipped.
   */
  async #readEvents(id: RequestId, reader: ChunkReader, cursor?: StreamCursor): Promise<boolean> {
    let answered = false;
    let oversized = false;
    const parser = createParser({
      // What the parser holds of one unfinished line or event, in characters.
      maxBufferSize: this.#limit,
      onEvent: (event) => {
        if (answered) return;
        if (cursor !== undefined && event.id !== undefined) {
          const colon = event.id.lastIndexOf(":");
          const seq = Number(event.id.slice(colon + 1));
          if (seq <= cursor.seq && cursor.stream !== undefined) return;
          cursor.stream = event.id.slice(0, colon);
          cursor.seq = seq;
        }
        answered = this.#deliver(event.data, id);
      },
      onRetry: (ms) => {
        if (cursor !== undefined) cursor.retryMs = ms;
      },
      onError: (error) => void (oversized ||= error.type === "max-buffer-size-exceeded"),
    });
    const decoder = new TextDecoder();
    while (!answered && !oversized) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    if (answered || oversized) await reader.cancel().catch(() => {});
    if (oversized) throw this.#tooLarge("an SSE event");
    return answered;
  }

  #tooLarge(what: string): RcpError {
    return new RcpError(
      ErrorCode.PayloadTooLarge,
      `Response too large: ${what} exceeds maxMessageBytes (${this.#limit})`,
      {
        limit: this.#limit,
      },
    );
  }

  /** Parses one JSON text into frames for the sink; true when it held the response to `id`. */
  #deliver(text: string, id: RequestId): boolean {
    const parsed = parseFrame(text);
    if (parsed === undefined) return false;
    let answered = false;
    for (const frame of Array.isArray(parsed) ? parsed : [parsed]) {
      if (isResponseTo(frame, id)) {
        answered = true;
        this.#rememberSession(frame);
      }
      this.#sink?.receive(frame, id);
    }
    return answered;
  }

  #rememberSession(response: { result?: unknown }): void {
    const result = response.result as { _meta?: { session?: unknown }; capabilities?: unknown } | undefined;
    const session = result?._meta?.session;
    if (typeof session === "string") this.#session = session;
    // An `initialize` result: whether the server offers resumable streams (§6.2).
    const capabilities = result?.capabilities;
    if (typeof capabilities === "object" && capabilities !== null)
      this.#resumable = this.#options.resume !== false && RESUMABLE_CAPABILITY in capabilities;
  }
}

/** The client transport over HTTP (§5.2): one POST per call, SSE when the call streams. */
export function httpClientTransport(options: HttpClientTransportOptions): HttpClientTransport {
  return new HttpClientTransport(options);
}

/** A notification is answered by 204 (or any 2xx) with no JSON-RPC body (§4.5). */
async function finishNotification(response: HttpReply): Promise<void> {
  await response.body?.cancel();
  if (response.status < 200 || response.status > 299)
    throw errorForStatus(response.status, response.header("retry-after"));
}

/** Waits `ms`; false when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve(!signal.aborted);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function isResponseTo(frame: unknown, id: RequestId): frame is { id: RequestId; result?: unknown } {
  if (typeof frame !== "object" || frame === null) return false;
  const message = frame as { id?: unknown; result?: unknown; error?: unknown };
  return message.id === id && ("result" in message || "error" in message);
}
