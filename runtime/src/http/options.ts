/** HTTP transport options (§5.2), shared by the Web fetch handler and node:http. */

/** The transport-neutral view of an HTTP request that hooks receive. */
export interface HttpRequestInfo {
  readonly method: string;
  /** Path without the query string, e.g. `/rcp/retrieve`. */
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface CorsOptions {
  /** Value of Access-Control-Allow-Origin, e.g. `*` or `https://app.example`. */
  origin: string;
  /** Extra request headers to allow besides Content-Type, Accept, Authorization and RCP-Session. */
  allowHeaders?: readonly string[];
  maxAgeSeconds?: number;
}

export interface HttpOptions {
  /** Default `/rcp`. */
  basePath?: string;
  /**
   * `stateless` (default): every request is implicitly initialized at the advertised
   * capabilities. `stateful`: `initialize` issues a token in `result._meta.session` that
   * later requests must send in the `RCP-Session` header (§5.2).
   */
  sessions?: "stateless" | "stateful";
  /**
   * Stateful sessions kept at once; past it the oldest is forgotten, so a loop of
   * initializes cannot grow the server without bound (§15.5). Default 10000.
   */
  maxSessions?: number;
  /** Runs before dispatch (and before initialize); false answers 401 with -32012 (§5.2). */
  authenticate?: (request: HttpRequestInfo) => boolean | Promise<boolean>;
  /** Cross-origin access for browser clients; without it no CORS header is sent and browsers refuse cross-origin calls. */
  cors?: CorsOptions;
  /** Interval of `:` keep-alive comments on a silent SSE stream. Default 15000 ms. */
  keepAliveMs?: number;
  /**
   * Requests handled at once across the whole HTTP server; past it a request is shed with
   * HTTP 429, `Retry-After` and -32011 before its body is read (§5.2, §12.2). Stateless HTTP
   * makes every request its own connection, so the per-connection `maxInFlight` cannot bound
   * it. Default 1024.
   */
  maxConcurrentRequests?: number;
}
