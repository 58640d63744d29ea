/**
 * The Node entry (`@rcp-gen/runtime/node`): everything that needs Node itself. Serving a
 * server over stdio (§5.1) or node:http (§5.2), and the stdio client transport that spawns
 * a server process, the connector a Selector uses for stdio engines, and the node:http
 * exchange for HTTP clients. The main entry stays free of Node modules for browsers and
 * edge hosts.
 *
 * @module @rcp-gen/runtime/node
 */
import type { RcpServer } from "../server/create-server-runtime.js";
import type { StdioConnector } from "../federation/selector.js";
import { stdioClientTransport, type StdioClientTransportOptions } from "../client/stdio-transport.js";
import { serverInternals } from "../server/create-server-runtime.js";
import type { HttpOptions } from "../http/options.js";
import { serveStdio as serveStdioCore, type StdioOptions } from "../message-stream/stdio.js";
import type { Listening, ListenOptions, NodeListener } from "../http/node-adapter.js";

export type { StdioOptions, Listening, ListenOptions, NodeListener };
export {
  stdioClientTransport,
  StdioClientTransport,
  type StdioClientTransportOptions,
} from "../client/stdio-transport.js";
export { NdjsonReader, ndjsonFrame, type NdjsonReaderOptions } from "../framing/ndjson.js";
export { nodeHttpExchange, type NodeHttpExchange, type NodeHttpExchangeOptions } from "../client/node-http-exchange.js";

/** The node:http adapter, loaded on first use so that a stdio server never loads node:http (start-up time). */
const loadNodeHttp = () => import("../http/node-adapter.js");

/** What `listen` takes: where to listen (host, port, timeouts) and the server's HTTP rules, the base path aside. */
export interface ServerListenOptions extends ListenOptions, Omit<HttpOptions, "basePath"> {
  /** Default `/rcp` (or the server's `http.basePath`). */
  basePath?: string;
}

/** Serves NDJSON on stdin/stdout (or the given streams) until EOF or `shutdown` (§5.1). */
export function serveStdio(server: RcpServer, options?: StdioOptions): Promise<void> {
  return serveStdioCore(serverInternals(server).core, options);
}

/** Starts a node:http server, on 127.0.0.1 unless `host` says otherwise; `server.close()` stops it too. */
export async function listen(server: RcpServer, options: ServerListenOptions = {}): Promise<Listening> {
  const internals = serverInternals(server);
  const { port, host, requestTimeoutMs, ...overrides } = options;
  const [http, { listenHttp }] = await Promise.all([internals.http(), loadNodeHttp()]);
  const listening = await listenHttp(http.endpoint(overrides), { port, host, requestTimeoutMs });
  return { url: listening.url, close: internals.track(() => listening.close()) };
}

/** HTTP options of a listener: the server's `http` options, overridden one by one. */
export type ListenerOptions = Omit<HttpOptions, "basePath"> & { basePath?: string };

/**
 * The server as a Node `(req, res)` request listener, to mount in node:http, Express, Fastify
 * or any Connect-style stack; with a third `next` argument it passes on requests outside its
 * base path. Every HTTP rule holds as behind `listen()` (content type, Origin, Host, auth);
 * timeouts and the socket belong to the host server. Mount it before any body parser (one
 * that ran first is tolerated: its parsed body is used).
 */
export function nodeListener(server: RcpServer, options: ListenerOptions = {}): NodeListener {
  let ready: NodeListener | undefined;
  // The HTTP code loads on first use (../server/create-server-runtime.ts); requests arriving before that wait for it.
  const loading = Promise.all([serverInternals(server).http(), loadNodeHttp()]).then(
    ([http, { nodeRequestListener }]) => (ready = nodeRequestListener(http.endpoint(options))),
  );
  return (request, response, next) => {
    if (ready !== undefined) return ready(request, response, next);
    void loading.then((listener) => listener(request, response, next));
  };
}

/**
 * How a Selector (`@rcp-gen/runtime/federation`) starts a registry's stdio engines: `command[0]`
 * with the rest as its arguments, plus `options` (`cwd`, `env`, `stderr`, `exitTimeoutMs`).
 */
export function stdioConnector(options: Omit<StdioClientTransportOptions, "command" | "args"> = {}): StdioConnector {
  return (command) => {
    const [program, ...args] = command;
    if (program === undefined) throw new TypeError("a stdio engine's command needs at least the program");
    return stdioClientTransport({ ...options, command: program, args });
  };
}
