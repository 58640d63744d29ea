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
}

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
    if (own !== undefined) this.#inFlight.add(own);
    try {
      const response = await this.#exchange({
        url: `${this.#base}/${frame.method}`,
        headers: this.#headers(wantsEvents, options.headers),
        body: JSON.stringify(frame),
        signal: options.signal ?? own!.signal,
      });
      if ("id" in frame) await this.#readResponse(frame.id, response);
      else await finishNotification(response);
    } catch (error) {
      if (error instanceof RcpError || error instanceof TransportError) throw error;
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new TransportError(`POST ${this.#base}/${frame.method} failed: ${cause}`, { cause: error });
    } finally {
      if (own !== undefined) this.#inFlight.delete(own);
    }
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
  async #readResponse(id: RequestId, response: HttpReply): Promise<void> {
    if (response.status !== 200) {
      await response.body?.cancel();
      // §5.2: non-200 is a transport fault the JSON-RPC layer never saw.
      throw errorForStatus(response.status, response.header("retry-after"));
    }
    const isEvents = (response.header("content-type") ?? "").startsWith("text/event-stream");
    const answered =
      isEvents && response.body !== null
        ? await this.#readEvents(id, response.body)
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

  /** Reads SSE frames as they arrive and stops at the final response frame (§5.2). */
  async #readEvents(id: RequestId, reader: ChunkReader): Promise<boolean> {
    let answered = false;
    let oversized = false;
    const parser = createParser({
      // What the parser holds of one unfinished line or event, in characters.
      maxBufferSize: this.#limit,
      onEvent: (event) => {
        if (!answered) answered = this.#deliver(event.data, id);
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
    const session = (response.result as { _meta?: { session?: unknown } } | undefined)?._meta?.session;
    if (typeof session === "string") this.#session = session;
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

function isResponseTo(frame: unknown, id: RequestId): frame is { id: RequestId; result?: unknown } {
  if (typeof frame !== "object" || frame === null) return false;
  const message = frame as { id?: unknown; result?: unknown; error?: unknown };
  return message.id === id && ("result" in message || "error" in message);
}
