/** Web-standard adapter of the HTTP core: `fetch(request) => Response` (Deno, Bun, workers, tests). */
import type { HttpExchange, UnreadBody } from "./exchange.js";
import type { HttpRequestInfo } from "./options.js";
import type { HttpServerCore } from "./serve.js";
import { readBounded, type ChunkReader } from "../framing/bounded-body.js";
import { discardRest } from "./linger.js";

export function handleFetch(http: HttpServerCore, request: Request): Promise<Response> {
  const exchange = new FetchExchange(request);
  http.serve(exchange).catch(() => exchange.internalError());
  return exchange.response;
}

const encoder = new TextEncoder();
/** Bytes an SSE body holds for a client that reads slowly before `write` says it is behind. */
const STREAM_HIGH_WATER_BYTES = 64 * 1024;

class FetchExchange implements HttpExchange {
  readonly request: HttpRequestInfo;
  readonly response: Promise<Response>;
  #resolve!: (response: Response) => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #finished = false;
  #gone = false;
  readonly #abortListeners: Array<() => void> = [];
  #drainListener: (() => void) | undefined;
  /** Set while readBody waits for the body. */
  #giveUp: (() => void) | undefined;
  /** Set when the body was refused before it was read whole: settles once the rest has been read out. */
  #restRead: Promise<void> | undefined;
  readonly #source: Request;

  constructor(source: Request) {
    this.#source = source;
    const url = new URL(source.url);
    const headers: Record<string, string> = {};
    source.headers.forEach((value, name) => (headers[name] = value));
    this.request = { method: source.method, path: url.pathname, headers };
    this.response = new Promise((resolve) => (this.#resolve = resolve));
    source.signal?.addEventListener("abort", () => this.#clientGone(), { once: true });
  }

  /** A Web Request does not say whether its body stream has been filled. */
  readonly bodyArrived = false;

  async readBody(limit: number): Promise<Uint8Array | UnreadBody> {
    const body = this.#source.body;
    if (!body) return new Uint8Array(0);
    const reader = body.getReader();
    const declared = Number(this.#source.headers.get("content-length"));
    if (declared > limit) return this.#tooLarge(reader);
    let gaveUp = false;
    this.#giveUp = () => {
      gaveUp = true;
      void reader.cancel().catch(() => {});
    };
    try {
      const bytes = await readBounded(reader, limit, true);
      if (gaveUp) return "given-up";
      return bytes ?? this.#tooLarge(reader);
    } catch {
      // The platform's HTTP parser failed the body stream (broken chunked framing, a short body),
      // or the client went away, when nobody reads the answer; a body given up on stays that.
      return gaveUp ? "given-up" : "malformed";
    } finally {
      this.#giveUp = undefined;
    }
  }

  giveUpBody(): void {
    this.#giveUp?.();
  }

  respond(status: number, headers: Readonly<Record<string, string>>, body: string): void {
    this.#finished = true;
    const response = (): void => this.#resolve(new Response(status === 204 ? null : body, { status, headers }));
    if (this.#restRead === undefined) response();
    else void this.#restRead.then(response);
  }

  /** Bun and others close the connection once the response is complete: the rest is read out first (./linger.ts). */
  #tooLarge(reader: ChunkReader): UnreadBody {
    this.#restRead = discardRest(reader);
    return "too-large";
  }

  startStream(headers: Readonly<Record<string, string>>): void {
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.#controller = controller),
        // Called when the client has read the queue below its high-water mark.
        pull: () => {
          const listener = this.#drainListener;
          this.#drainListener = undefined;
          listener?.();
        },
        cancel: () => this.#clientGone(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER_BYTES }),
    );
    this.#resolve(new Response(stream, { status: 200, headers }));
  }

  write(text: string): boolean {
    if (this.#finished || !this.#controller) return true;
    this.#controller.enqueue(encoder.encode(text));
    return (this.#controller.desiredSize ?? 0) > 0;
  }

  onDrain(listener: () => void): void {
    this.#drainListener = listener;
  }

  end(): void {
    if (this.#finished && !this.#gone) return;
    this.#finished = true;
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the client: nothing left to close.
    }
  }

  onAbort(listener: () => void): void {
    this.#abortListeners.push(listener);
  }

  internalError(): void {
    if (this.#controller) this.end();
    else this.respond(500, { "content-type": "text/plain" }, "Internal error");
  }

  #clientGone(): void {
    if (this.#finished) return;
    this.#finished = this.#gone = true;
    for (const listener of this.#abortListeners) listener();
  }
}
