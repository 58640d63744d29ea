/**
 * What a browser may make an HTTP server do (§5.2, §15.1). A web page can POST to any
 * address its visitor can reach, loopback included, and a "simple" request (a form content
 * type, no preflight) is carried out even though the page cannot read the answer. So:
 *  - a body must be declared JSON, so a simple request never reaches a handler (415);
 *  - a request carrying an `Origin` must come from an allowed origin (403): the one allow-list,
 *    `http.cors.origins`, also decides the CORS headers and the preflight answers;
 *  - the `Host` must be one the server answers to (403), so a DNS-rebound name that points at
 *    127.0.0.1 cannot make a foreign page same-origin with the server. `localhost`, its
 *    subdomains and IP literals cannot be rebound and are always allowed.
 * Requests without `Origin` (curl, SDKs, servers) are not browsers' and pass the origin rule.
 */
import type { CorsOptions, HttpOptions } from "./options.js";

/** Request headers a browser may send once preflighted, besides any listed in `cors.allowHeaders`. */
const ALLOWED_REQUEST_HEADERS = ["content-type", "accept", "authorization", "rcp-session"];
/** What a browser may also send to a server that offers resumable streams: the opt-in and the resume request. */
const RESUMABLE_REQUEST_HEADERS = ["x-rcp-resumable", "last-event-id"];
const DEFAULT_MAX_AGE_SECONDS = 600;

export class RequestGuard {
  readonly #cors: CorsOptions | undefined;
  readonly #hosts: readonly string[] | "any";
  readonly #exposeHeaders: string;
  readonly #resumable: boolean;
  /** The last Host allowed: a keep-alive client sends the same one on every request. */
  #allowedHost: string | undefined;

  constructor(options: HttpOptions, exposeHeaders: string) {
    this.#cors = options.cors;
    this.#hosts = options.allowedHosts ?? [];
    this.#exposeHeaders = exposeHeaders;
    this.#resumable = options.resumable !== undefined && options.resumable !== false;
  }

  /** Whether the Host header (`name[:port]`) names this server; absent is not a browser's request. */
  hostAllowed(host: string | undefined): boolean {
    if (host === undefined || this.#hosts === "any" || host === this.#allowedHost) return true;
    const name = hostName(host);
    if (name === undefined) return false;
    const allowed =
      name === "localhost" ||
      name.endsWith(".localhost") ||
      isIpLiteral(name) ||
      this.#hosts.some((entry) => {
        const rule = entry.toLowerCase();
        return rule.startsWith(".") ? name === rule.slice(1) || name.endsWith(rule) : name === rule;
      });
    if (allowed) this.#allowedHost = host;
    return allowed;
  }

  originAllowed(origin: string): boolean {
    return (this.#cors?.origins ?? []).some((rule) => (typeof rule === "string" ? rule === origin : rule(origin)));
  }

  /** Headers of any answer to an allowed origin. */
  corsHeaders(origin: string): Record<string, string> {
    return {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": this.#exposeHeaders,
      vary: "Origin",
    };
  }

  /** The answer to an allowed origin's `OPTIONS` preflight. */
  preflightHeaders(origin: string): Record<string, string> {
    const extra = this.#cors?.allowHeaders ?? [];
    return {
      ...this.corsHeaders(origin),
      "access-control-allow-methods": this.#resumable ? "POST, GET, DELETE, OPTIONS" : "POST, OPTIONS",
      "access-control-allow-headers": [
        ...ALLOWED_REQUEST_HEADERS,
        ...(this.#resumable ? RESUMABLE_REQUEST_HEADERS : []),
        ...extra,
      ].join(", "),
      "access-control-max-age": String(this.#cors?.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS),
    };
  }
}

/** `application/json` or any `+json` type, parameters ignored (§5.2). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === "application/json") return true;
  const type = value.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** The lower-cased name of a Host header value, without its port; undefined when malformed. */
function hostName(host: string): string | undefined {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) {
    const close = value.indexOf("]");
    return close === -1 ? undefined : value.slice(0, close + 1);
  }
  const [name, port, ...rest] = value.split(":");
  if (rest.length > 0 || name === "" || (port !== undefined && !/^\d+$/.test(port))) return undefined;
  return name;
}

function isIpLiteral(name: string): boolean {
  return name.startsWith("[") || /^\d{1,3}(\.\d{1,3}){3}$/.test(name);
}
