/**
 * One POST over a kept-alive `node:net` connection, without node:http: the request goes out
 * as one write, the response is parsed as it arrives (http1-response-parser.ts) and its body
 * handed to the reader chunk by chunk. node:http's streams, events and per-request objects
 * cost more CPU than the exchange itself for the small, frequent calls of a federator.
 *
 * The connection is returned to the pool once the response has fully arrived; a body cut
 * short (cancelled, aborted, malformed) closes it. A request sent on a reused connection that
 * closes before any byte of the answer is sent once more on a new one: the server may have
 * closed the idle connection just as the request went out.
 */
import type { HttpPost, HttpReply } from "./http-exchange.js";
import { BodyQueue, type BodySource } from "./body-queue.js";
import {
  hasNoBody,
  HTTP_TOKEN,
  ResponseParser,
  type ResponseHead,
  type ResponseSink,
} from "./http1-response-parser.js";
import type { Connection, ConnectionOwner, Endpoint, SocketPool } from "./socket-pool.js";

/** Where a POST goes: the pool's endpoint plus what the request line and Host header need. */
export interface RawTarget extends Endpoint {
  /** The Host header: host and port as in the URL. */
  host: string;
  /** Path and query. */
  path: string;
}

const BAD_VALUE = /[\r\n\0]/;
const NOT_ASCII = /[^\x00-\x7f]/;
// Framing is this exchange's job, whatever the caller's headers say.
const OWN_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

export function rawPost(pool: SocketPool, target: RawTarget, post: HttpPost): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    if (post.signal.aborted) return reject(abortError(post.signal));
    new RawExchange(pool, target, requestBytes(target, post), post.signal, resolve, reject).start();
  });
}

/** Request line, headers and body, for one write. */
function requestBytes(target: RawTarget, { headers, body }: HttpPost): string | Buffer {
  let host = `Host: ${target.host}\r\n`;
  let lines = "";
  for (const name in headers) {
    const value = headers[name]!;
    if (!HTTP_TOKEN.test(name)) throw new TypeError(`invalid HTTP header name ${JSON.stringify(name)}`);
    if (BAD_VALUE.test(value)) throw new TypeError(`invalid character in HTTP header ${name}`);
    const lower = name.toLowerCase();
    if (lower === "host") host = `${name}: ${value}\r\n`;
    else if (!OWN_HEADERS.has(lower)) lines += `${name}: ${value}\r\n`;
  }
  const head = `POST ${target.path} HTTP/1.1\r\n${host}Content-Length: ${Buffer.byteLength(body)}\r\n${lines}\r\n`;
  // Header values beyond ASCII go out as latin1, as node:http sends them; the body is UTF-8.
  return NOT_ASCII.test(head) ? Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(body)]) : head + body;
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error("The operation was aborted", { cause: signal.reason }), {
    name: "AbortError",
    code: "ABORT_ERR",
  });
}

class RawExchange implements ConnectionOwner, ResponseSink, BodySource {
  readonly #pool: SocketPool;
  readonly #target: RawTarget;
  readonly #request: string | Buffer;
  readonly #signal: AbortSignal;
  readonly #resolve: (reply: HttpReply) => void;
  readonly #reject: (error: unknown) => void;
  #connection: Connection | undefined;
  #parser: ResponseParser | undefined;
  #head: ResponseHead | undefined;
  #body: BodyQueue | undefined;
  #answered = false;
  readonly #onAbort = (): void => this.#fail(abortError(this.#signal));

  constructor(
    pool: SocketPool,
    target: RawTarget,
    request: string | Buffer,
    signal: AbortSignal,
    resolve: (reply: HttpReply) => void,
    reject: (error: unknown) => void,
  ) {
    this.#pool = pool;
    this.#target = target;
    this.#request = request;
    this.#signal = signal;
    this.#resolve = resolve;
    this.#reject = reject;
  }

  start(): void {
    this.#send(this.#pool.acquire(this.#target));
    // After the write, which nothing can abort: the request leaves without waiting for it.
    this.#signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  #send(connection: Connection): void {
    this.#connection = connection;
    connection.owner = this;
    connection.socket.write(this.#request);
    // Bytes arrive in a later turn, so the parser can wait until the request has left.
    this.#parser = new ResponseParser(this);
  }

  data(bytes: Buffer): void {
    this.#answered = true;
    try {
      this.#parser!.feed(bytes);
    } catch (error) {
      this.#fail(error);
    }
  }

  closed(error: Error | undefined): void {
    const reused = this.#connection?.reused === true;
    this.#connection = undefined;
    if (!this.#answered && reused) return this.#send(this.#pool.connect(this.#target));
    if (this.#head === undefined)
      return this.#fail(error ?? new Error("the server closed the connection before responding"));
    try {
      // Ends a body that runs until the connection closes; anything else was cut short.
      this.#parser!.close();
    } catch (cutShort) {
      this.#fail(error ?? cutShort);
    }
  }

  head(head: ResponseHead): void {
    this.#head = head;
    const headers = head.headers;
    this.#body = hasNoBody(head.status) ? undefined : new BodyQueue(this);
    this.#resolve({
      status: head.status,
      header: (name) => headers.get(name.toLowerCase()) ?? null,
      body: this.#body ?? null,
    });
  }

  chunk(bytes: Buffer): void {
    this.#body!.push(bytes);
  }

  end(rest: Buffer | undefined): void {
    this.#signal.removeEventListener("abort", this.#onAbort);
    this.#body?.end();
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection === undefined) return;
    if (rest === undefined && this.#head!.keepAlive) this.#pool.release(connection);
    else connection.destroy();
  }

  pause(): void {
    this.#connection?.socket.pause();
  }

  resume(): void {
    this.#connection?.socket.resume();
  }

  cancel(): void {
    this.#signal.removeEventListener("abort", this.#onAbort);
    this.#connection?.destroy();
    this.#connection = undefined;
  }

  #fail(error: unknown): void {
    this.#signal.removeEventListener("abort", this.#onAbort);
    this.#connection?.destroy();
    this.#connection = undefined;
    if (this.#head === undefined) this.#reject(error);
    else this.#body?.fail(error);
  }
}
