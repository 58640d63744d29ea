/**
 * node:http adapter of the HTTP core. It works on IncomingMessage / ServerResponse
 * directly (no Request/Response objects), so the common path stays close to a raw
 * node:http handler. The same listener serves `listen()` and any framework that hands out
 * Node's request and response (Express, Fastify, Connect-style middleware).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { HttpExchange } from "./exchange.js";
import type { HttpRequestInfo } from "./options.js";
import type { HttpServerCore } from "./serve.js";

/** Where `listen` binds, and how long a request may take. */
export interface ListenOptions {
  /** TCP port; default 0: a free port, which the returned `url` names. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`, so nothing off this machine reaches the server. */
  host?: string;
  /**
   * Time allowed to receive a whole request, headers and body (§15.5). A slower or stalled
   * one is answered 408 and its socket closed. Default 30000 ms.
   */
  requestTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How often node:http looks for requests past their timeout; node's own default is 30 s. */
const TIMEOUT_CHECK_MS = 1000;

/** A server listening over HTTP, as `listen` resolves. */
export interface Listening {
  /** Base URL of the RCP endpoint, e.g. `http://127.0.0.1:41234/rcp`. */
  url: string;
  /** Stops accepting, ends open streams and closes the socket. */
  close(): Promise<void>;
}

/**
 * A Node request listener, usable as Connect/Express middleware: with `next`, a request
 * outside the base path goes on to the next handler instead of getting 404.
 */
export type NodeListener = (
  request: IncomingMessage,
  response: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

export function nodeRequestListener(http: HttpServerCore): NodeListener {
  return (request, response, next) => {
    const exchange = new NodeExchange(request, response);
    if (next !== undefined && !http.owns(exchange.request.path)) return next();
    http.serve(exchange).catch(() => exchange.internalError());
  };
}

export function listenHttp(http: HttpServerCore, options: ListenOptions): Promise<Listening> {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      requestTimeout,
      // node:http refuses a headers timeout above the request timeout.
      headersTimeout: Math.min(requestTimeout, 60_000),
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, requestTimeout),
    },
    nodeRequestListener(http),
  );
  answerClientErrorsLast(server);
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const hostname = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${hostname}:${port}${http.basePath}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** What node:http itself would answer to a connection it cannot parse on, by error code. */
const CLIENT_ERROR_STATUS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
};
const REQUEST_TIMEOUT = "ERR_HTTP_REQUEST_TIMEOUT";

/**
 * node:http answers bytes it cannot parse by writing 400 and destroying the socket at once,
 * even when requests parsed earlier on that connection are still being handled: their
 * answers were lost (a write ran and its caller never heard). Here the refusal waits until
 * every earlier answer on the connection has been written. A request that took longer than
 * `requestTimeoutMs` to arrive is cut off at once, as node:http does: 408 unless an answer has
 * begun, and the socket destroyed.
 */
function answerClientErrorsLast(server: Server): void {
  const unanswered = new WeakMap<Socket, number>();
  const whenAnswered = new WeakMap<Socket, () => void>();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    unanswered.set(socket, (unanswered.get(socket) ?? 0) + 1);
    res.once("close", () => {
      const left = unanswered.get(socket)! - 1;
      unanswered.set(socket, left);
      if (left === 0) whenAnswered.get(socket)?.();
    });
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === REQUEST_TIMEOUT) {
      const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
      if (socket.writable && !answering) socket.write("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
      return void socket.destroy();
    }
    const refuse = (): void => {
      if (!socket.writable || error.code === "ECONNRESET") return void socket.destroy();
      const status = CLIENT_ERROR_STATUS[error.code ?? ""] ?? "400 Bad Request";
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if ((unanswered.get(socket) ?? 0) === 0) refuse();
    else whenAnswered.set(socket, refuse);
  });
}

class NodeExchange implements HttpExchange {
  readonly request: HttpRequestInfo;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  /** Set while readBody waits for the body. */
  #giveUp: (() => void) | undefined;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    // Express and Connect strip a mount path from req.url and keep the whole one here.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "/";
    const query = url.indexOf("?");
    this.request = {
      method: req.method ?? "GET",
      path: query === -1 ? url : url.slice(0, query),
      // node:http keeps the first of several Host headers; the core refuses them all (400).
      headers: hostCount(req.rawHeaders) > 1 ? { ...req.headers, host: hostValues(req.rawHeaders) } : req.headers,
      remoteAddress: req.socket.remoteAddress,
    };
  }

  get bodyArrived(): boolean {
    // node:http parses a whole request that came in one read before the listener runs.
    return this.#req.complete;
  }

  readBody(limit: number): Promise<Buffer | null> {
    const req = this.#req;
    // A body parser in front (express.json()) has read the stream already: its result, or nothing.
    if (req.readableEnded) return Promise.resolve(consumedBody(req, limit));
    const declared = Number(req.headers["content-length"]);
    if (declared > limit) return Promise.resolve(this.#refuseBody());
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = (): void => {
        req.off("data", onData);
        req.off("end", onEnd);
        this.#giveUp = undefined;
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) {
          stop();
          resolve(this.#refuseBody());
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => {
        stop();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      // A body given up on (too slow) ends its connection after the answer: nothing of it is awaited.
      this.#giveUp = (): void => {
        stop();
        this.#res.shouldKeepAlive = false;
        resolve(null);
      };
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", reject);
      // A client that disconnects mid-body never sends "end"; after "end" this is a no-op.
      // Building the Error only when the body is really incomplete: after "end" (every normal
      // request) an Error with its stack trace per request cost ~10% of the server's CPU.
      req.once("close", () => {
        if (!req.complete) reject(new Error("request closed before its body ended"));
      });
    });
  }

  giveUpBody(): void {
    this.#giveUp?.();
  }

  respond(status: number, headers: Readonly<Record<string, string>>, body: string): void {
    if (this.#res.headersSent || this.#res.destroyed) return;
    this.#res.writeHead(status, headers);
    this.#res.end(body);
  }

  startStream(headers: Readonly<Record<string, string>>): void {
    this.#res.socket?.setNoDelay(true);
    this.#res.writeHead(200, headers);
    this.#res.flushHeaders();
  }

  write(text: string): boolean {
    return this.#res.writableEnded || this.#res.destroyed || this.#res.write(text);
  }

  onDrain(listener: () => void): void {
    this.#res.once("drain", listener);
  }

  end(): void {
    if (!this.#res.writableEnded && !this.#res.destroyed) this.#res.end();
  }

  onAbort(listener: () => void): void {
    this.#res.once("close", () => {
      if (!this.#res.writableFinished) listener();
    });
  }

  /** A failure of the HTTP core itself: 500 before the status line, otherwise just end. */
  internalError(): void {
    if (!this.#res.headersSent) this.respond(500, { "content-type": "text/plain" }, "Internal error");
    else this.end();
  }

  /**
   * Stops keeping an oversized body: the rest is read and discarded, and the connection is
   * closed once it has all arrived. Closing while the client still sends would make the
   * kernel reset the connection, and the client would lose the 413 already sent.
   */
  #refuseBody(): null {
    const req = this.#req;
    const socket = req.socket;
    req.once("end", () => socket.end());
    req.resume();
    return null;
  }
}

function hostCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) if (rawHeaders[index]!.toLowerCase() === "host") count++;
  return count;
}

function hostValues(rawHeaders: readonly string[]): string[] {
  return rawHeaders.filter((_, index) => index % 2 === 1 && rawHeaders[index - 1]!.toLowerCase() === "host");
}

/**
 * The body a framework's parser left on `req.body`: bytes, text, or parsed JSON (written back
 * as JSON). Without one the request cannot be read, which is answered as a too-large body is
 * not: an empty body, so the client gets -32700 rather than a request that hangs.
 */
function consumedBody(req: IncomingMessage, limit: number): Buffer | null {
  const body = (req as { body?: unknown }).body;
  const bytes =
    body instanceof Uint8Array
      ? Buffer.from(body)
      : Buffer.from(typeof body === "string" ? body : body === undefined ? "" : JSON.stringify(body));
  return bytes.length > limit ? null : bytes;
}
