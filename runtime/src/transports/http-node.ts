/**
 * node:http adapter of the HTTP core. It works on IncomingMessage / ServerResponse
 * directly (no Request/Response objects), so the common path stays close to a raw
 * node:http handler. The same listener serves `listen()` and any framework that hands out
 * Node's request and response (Express, Fastify, Connect-style middleware).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpExchange } from "../http/exchange.js";
import type { HttpRequestInfo } from "../http/options.js";
import type { HttpServerCore } from "../http/serve.js";

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

export interface Listening {
  /** Base URL of the RCP endpoint, e.g. `http://127.0.0.1:41234/rcp`. */
  url: string;
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

class NodeExchange implements HttpExchange {
  readonly request: HttpRequestInfo;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    // Express and Connect strip a mount path from req.url and keep the whole one here.
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? "/";
    const query = url.indexOf("?");
    this.request = {
      method: req.method ?? "GET",
      path: query === -1 ? url : url.slice(0, query),
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress,
    };
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
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > limit) {
          req.off("data", onData);
          req.off("end", onEnd);
          resolve(this.#refuseBody());
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
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

  /** Stops reading an oversized body; the connection closes after the 413 is sent. */
  #refuseBody(): null {
    this.#res.shouldKeepAlive = false;
    this.#req.resume();
    return null;
  }
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
