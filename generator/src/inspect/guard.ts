/**
 * Who may talk to the inspector. Its server can call the engine with anything, so it answers
 * only the page it served (the lesson of the MCP Inspector's CVE-2025-49596, where any web
 * page could drive a local proxy):
 *  - it listens on 127.0.0.1 only;
 *  - `Host` must name that address (or localhost) and the port, so a DNS-rebound name that
 *    points a foreign page at 127.0.0.1 is refused (403);
 *  - `Origin`, when a browser sends one, must be the inspector's own (403); so must
 *    `Sec-Fetch-Site`, when sent, say same-origin or a typed-in address;
 *  - every request carries the session token made at start-up, as `Authorization: Bearer`
 *    or `?token=` (401): the URL printed in the terminal holds it, nothing else does.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface Refusal {
  readonly status: 401 | 403;
  readonly reason: string;
}

export function newSessionToken(): string {
  return randomBytes(24).toString("base64url");
}

export class Guard {
  readonly #token: Buffer;
  readonly #hosts: ReadonlySet<string>;
  readonly #origins: ReadonlySet<string>;

  constructor(token: string, port: number) {
    this.#token = Buffer.from(token);
    const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
    this.#hosts = new Set(hosts);
    this.#origins = new Set(hosts.map((host) => `http://${host}`));
  }

  /** Why `request` is refused, or undefined when it may go on. */
  refusal(request: IncomingMessage, url: URL): Refusal | undefined {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined || !this.#hosts.has(host))
      return { status: 403, reason: `Host ${host ?? "(none)"} is not this inspector's address` };
    const origin = request.headers.origin;
    if (origin !== undefined && !this.#origins.has(origin.toLowerCase()))
      return { status: 403, reason: `Origin ${origin} is not this inspector's page` };
    const site = request.headers["sec-fetch-site"];
    if (typeof site === "string" && site !== "same-origin" && site !== "none")
      return { status: 403, reason: `a ${site} request is not this inspector's page` };
    if (!this.#tokenMatches(presentedToken(request, url)))
      return { status: 401, reason: "the session token is missing or wrong: open the URL the inspector printed" };
    return undefined;
  }

  #tokenMatches(presented: string | undefined): boolean {
    if (presented === undefined) return false;
    const given = Buffer.from(presented);
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }
}

function presentedToken(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) return /^Bearer (.+)$/i.exec(header)?.[1];
  return url.searchParams.get("token") ?? undefined;
}
