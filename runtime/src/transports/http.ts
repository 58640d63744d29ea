/**
 * The HTTP side of a server (§5.2): the Web fetch handler and node:http listeners over one
 * HttpServerCore. createServerRuntime loads this module on first use, so a stdio-only
 * server never loads node:http, node:crypto or the SSE code (start-up time).
 */
import type { ServerCore } from "../core.js";
import type { HttpOptions } from "../http/options.js";
import { HttpServerCore } from "../http/serve.js";
import { handleFetch } from "./http-fetch.js";
import { listenHttp, type Listening, type ListenOptions } from "./http-node.js";

export interface ServerListenOptions extends ListenOptions, Omit<HttpOptions, "basePath"> {
  /** Default `/rcp` (or the server's `http.basePath`). */
  basePath?: string;
}

export class HttpTransport {
  readonly #core: ServerCore;
  /** Serves `fetch` and every listener without HTTP overrides, so they share stateful sessions. */
  readonly #shared: HttpServerCore;

  constructor(core: ServerCore) {
    this.#core = core;
    this.#shared = new HttpServerCore(core);
  }

  fetch(request: Request): Promise<Response> {
    return handleFetch(this.#shared, request);
  }

  listen(options: ServerListenOptions): Promise<Listening> {
    const { port, host, requestTimeoutMs, ...overrides } = options;
    const endpoint =
      Object.keys(overrides).length === 0
        ? this.#shared
        : new HttpServerCore(this.#core, { ...this.#core.http, ...overrides });
    return listenHttp(endpoint, { port, host, requestTimeoutMs });
  }
}
