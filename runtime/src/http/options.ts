/** HTTP transport options (§5.2), shared by the Web fetch handler and node:http. */
import type { AuthInfo } from "../protocol/request-origin.js";
import type { ResumableOptions } from "../resume/wire.js";

/** The transport-neutral view of an HTTP request that hooks receive. */
export interface HttpRequestInfo {
  readonly method: string;
  /** Path without the query string, e.g. `/rcp/retrieve`. */
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The TCP peer's address, when the runtime knows it (node:http does). */
  readonly remoteAddress?: string | undefined;
}

/** A browser origin: an exact `scheme://host[:port]` such as `https://app.example`, or a predicate. */
export type OriginRule = string | ((origin: string) => boolean);

/** Which browser origins may call the server, and what the preflight answers. */
export interface CorsOptions {
  /**
   * The origins whose pages may call the server: the one allow-list. A request whose `Origin`
   * matches gets CORS headers (its own origin, `Vary: Origin`, RCP-Session exposed) and its
   * `OPTIONS` preflight answered; any other `Origin` is refused with 403. Requests without
   * `Origin` (non-browser clients) are not affected.
   */
  origins: readonly OriginRule[];
  /** Extra request headers to allow besides Content-Type, Accept, Authorization and RCP-Session. */
  allowHeaders?: readonly string[];
  /** How long a browser may cache a preflight answer. Default 600 s. */
  maxAgeSeconds?: number;
}

/** The server's HTTP rules (§5.2): base path, authentication, CORS, allowed hosts, sessions and their limits. */
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
   * Stateful sessions kept at once by the in-memory store (§15.5). When full, sessions past
   * their idle window make room; otherwise a new `initialize` is refused with -32011 and a
   * retry hint, so a flood of `initialize` calls never logs out a client in its idle window.
   * Default 10000.
   */
  maxSessions?: number;
  /**
   * Stateful sessions unused for this long are forgotten; their token then gets -32001, so
   * the client initializes again (§13). Default 1 800 000 ms (30 min).
   */
  sessionIdleMs?: number;
  /**
   * Runs before dispatch (and before initialize); false answers 401 with -32012 (§5.2). An
   * object is the caller's identity: handlers and interceptors see it as `ctx.auth`, so writes
   * can be authorised apart from reads (§15.3).
   */
  authenticate?: (request: HttpRequestInfo) => boolean | AuthInfo | Promise<boolean | AuthInfo>;
  /** Browser access. Without it every request carrying an `Origin` header is refused with 403. */
  cors?: CorsOptions;
  /**
   * Host names the server answers to (the Host header without its port), against DNS
   * rebinding; others get 403. `localhost`, `*.localhost` and IP literals always pass. A
   * leading dot (`.example.com`) allows a domain and its subdomains. `"any"` turns the check
   * off. Default: none beyond those.
   */
  allowedHosts?: readonly string[] | "any";
  /**
   * Addresses of proxies (load balancers) whose `X-Forwarded-For` header names the client, for
   * the per-address rate limit (`rateLimit`). From any other peer the header is ignored.
   * Default: none.
   */
  trustedProxies?: readonly string[];
  /** Interval of `:` keep-alive comments on a silent SSE stream. Default 15000 ms. */
  keepAliveMs?: number;
  /**
   * Requests handled at once across the whole HTTP server, counted from the moment a body is
   * complete; past it a request is shed with HTTP 429, `Retry-After` and -32011 (§5.2, §12.2).
   * Stateless HTTP makes every request its own connection, so the per-connection
   * `maxInFlight` cannot bound it. Default 1024.
   */
  maxConcurrentRequests?: number;
  /**
   * Request bodies being received at once. Past it the body that has waited longest is given
   * up (408, -32014, connection closed), so clients that send slowly cannot keep a fast one
   * out. Default 256.
   */
  maxPendingBodies?: number;
  /** Time a request body may take to arrive once its headers have; longer is 408 (-32014) and the connection closed. Default 10000 ms. */
  bodyTimeoutMs?: number;
  /**
   * Offer resumable SSE streams (docs/resumable-streams.md): advertised as the `x-rcp-resumable`
   * capability, used only by requests that ask for it. `true` takes every default. Default off.
   */
  resumable?: boolean | ResumableOptions;
}
