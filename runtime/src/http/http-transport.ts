/**
 * The HTTP side of a server (§5.2) as far as Web standards go: the fetch handler over one
 * HttpServerCore, whose stateful sessions node:http listeners (../node/index.ts) share.
 * createServerRuntime loads this module on first use, so a stdio-only server never loads
 * the HTTP and SSE code (start-up time).
 */
import type { ServerCore } from "../server/core.js";
import type { HttpOptions } from "./options.js";
import { HttpServerCore } from "./serve.js";
import { handleFetch } from "./fetch-adapter.js";

export class HttpTransport {
  readonly core: ServerCore;
  /** Serves `fetch` and every listener without HTTP overrides, so they share stateful sessions. */
  readonly shared: HttpServerCore;

  constructor(core: ServerCore) {
    this.core = core;
    this.shared = new HttpServerCore(core);
  }

  fetch(request: Request): Promise<Response> {
    return handleFetch(this.shared, request);
  }

  /** The shared endpoint, or a new one when a listener overrides HTTP options. */
  endpoint(overrides: Omit<HttpOptions, "basePath"> & { basePath?: string }): HttpServerCore {
    return Object.keys(overrides).length === 0
      ? this.shared
      : new HttpServerCore(this.core, { ...this.core.http, ...overrides });
  }
}
