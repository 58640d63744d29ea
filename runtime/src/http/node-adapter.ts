/**
 * node:http adapter of the HTTP core. It works on IncomingMessage / ServerResponse
 * directly (no Request/Response objects), so the common path stays close to a raw
 * node:http handler. The same listener serves `listen()` and any framework that hands out
 * Node's request and response (Express, Fastify, Connect-style middleware).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { HttpExchange, UnreadBody } from "./exchange.js";
import { isLingering, linger } from "./node-linger.js";
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
 * The request on each connection whose body is being read, and how to tell it that the parser
 * refused that body: it then answers 400 itself, at once, rather than wait for bytes that can no
 * longer arrive. False when its body was complete after all: the refused bytes came after it.
 */
const bodyReaders = new WeakMap<Socket, () => boolean>();

/**
 * node:http answers bytes it cannot parse by writing 400 and destroying the socket at once,
 * even when requests parsed earlier on that connection are still being handled: their
 * answers were lost (a write ran and its caller never heard). Here a refused body is answered
 * by its own request, and bytes refused between requests wait until every earlier answer on the
 * connection has been written; either way the connection is closed by lingering (./node-linger.ts).
 * A request that took longer than `requestTimeoutMs` to arrive is cut off at once, as node:http
 * does: 408 unless an answer has begun, and the socket destroyed.
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
    const parseError = error.code?.startsWith("HPE_") === true;
    // The parser fails again on each chunk of a refused request's rest while it is read out.
    if (parseError && isLingering(socket)) return;
    if (parseError && bodyReaders.get(socket)?.() === true) return;
    const refuse = (): void => {
      if (!socket.writable || !parseError) return void socket.destroy();
      const status = CLIENT_ERROR_STATUS[error.code ?? ""] ?? "400 Bad Request";
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      linger(socket, () => socket.destroy());
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
  /** Set once the body will not be read whole: settles when the rest of the request has been read out. */
  #restRead: Promise<void> | undefined;

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

  readBody(limit: number): Promise<Buffer | UnreadBody> {
    const req = this.#req;
    // A body parser in front (express.json()) has read the stream already: its result, or nothing.
    if (req.readableEnded) return Promise.resolve(consumedBody(req, limit) ?? "too-large");
    const declared = Number(req.headers["content-length"]);
    if (declared > limit) return Promise.resolve(this.#unread("too-large"));
    return new Promise((resolve, reject) => {
      const socket = req.socket;
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = (): void => {
        req.off("data", onData);
        req.off("end", onEnd);
        this.#giveUp = undefined;
        bodyReaders.delete(socket);
      };
      const refuse = (reason: UnreadBody): void => {
        stop();
        resolve(this.#unread(reason));
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) refuse("too-large");
        else chunks.push(chunk);
      };
      const onEnd = (): void => {
        stop();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      this.#giveUp = () => refuse("given-up");
      bodyReaders.set(socket, () => {
        if (req.complete) return false;
        refuse("malformed");
        return true;
      });
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
    const res = this.#res;
    if (res.headersSent || res.destroyed) return;
    // The body is whole: its length goes ahead of it, so node:http writes the answer in one piece
    // instead of chunked (a 204 carries no length, RFC 9110 §8.6).
    res.writeHead(status, status === 204 ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) });
    const restRead = this.#restRead;
    if (restRead === undefined) return void res.end(body);
    // Sent whole now; the response ends, and the connection closes, once the rest is read out.
    res.write(body);
    void restRead.then(() => res.end());
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
   * Stops keeping a body that will not be read whole: the answer goes out at once, and the rest of
   * the request is read and thrown away until the client has stopped sending (lingering close).
   */
  #unread(reason: UnreadBody): UnreadBody {
    const req = this.#req;
    this.#res.shouldKeepAlive = false;
    this.#restRead = new Promise((resolve) => {
      const restArrived = linger(req.socket, resolve);
      req.once("end", restArrived);
    });
    req.resume();
    return reason;
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
