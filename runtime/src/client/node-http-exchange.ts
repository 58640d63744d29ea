/**
 * The HTTP client transport's exchange over node:http and node:https, for Node hosts. It
 * costs less per request than `fetch` (undici's fetch wraps each exchange in Web streams,
 * Request and Response objects), which matters where one process makes many small RCP calls,
 * like a federator fanning each retrieve out to its engines. Connections are kept alive and
 * sent without Nagle delay; each request goes out as one write (headers and body together).
 */
import type { Agent as HttpAgent, IncomingMessage, request as httpRequest } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { ChunkReader } from "../framing/bounded-body.js";
import type { HttpExchange, HttpReply } from "./http-exchange.js";

export interface NodeHttpExchangeOptions {
  /** The agent for `http:` URLs; default one of this exchange's own, keep-alive. */
  agent?: HttpAgent;
  /** The agent for `https:` URLs; default one of this exchange's own, keep-alive. */
  httpsAgent?: HttpsAgent;
}

type Scheme = "http:" | "https:";

interface SchemeClient {
  request: typeof httpRequest;
  agent: HttpAgent;
}

const KEEP_ALIVE = { keepAlive: true, noDelay: true };

/** An exchange for `HttpClientTransportOptions.exchange` (and so for a Selector's `http` option). */
export function nodeHttpExchange(options: NodeHttpExchangeOptions = {}): HttpExchange {
  const clients: Partial<Record<Scheme, Promise<SchemeClient>>> = {};
  return async ({ url, headers, body, signal }) => {
    const target = new URL(url);
    const scheme = target.protocol;
    if (scheme !== "http:" && scheme !== "https:") throw new TypeError(`not an http: or https: URL: ${url}`);
    const { request, agent } = await (clients[scheme] ??= schemeClient(scheme, options));
    const payload = Buffer.from(body);
    return new Promise<HttpReply>((resolve, reject) => {
      const headersWithLength: Record<string, string> = Object.assign({}, headers);
      headersWithLength["content-length"] = String(payload.byteLength);
      const outgoing = request(target, { method: "POST", agent, headers: headersWithLength, signal }, (incoming) =>
        resolve(reply(incoming)),
      );
      outgoing.on("error", reject);
      outgoing.end(payload);
    });
  };
}

/** node:http and node:https load on first use, so importing the Node entry stays cheap. */
async function schemeClient(scheme: Scheme, options: NodeHttpExchangeOptions): Promise<SchemeClient> {
  if (scheme === "https:") {
    const https = await import("node:https");
    return { request: https.request, agent: options.httpsAgent ?? new https.Agent(KEEP_ALIVE) };
  }
  const http = await import("node:http");
  return { request: http.request, agent: options.agent ?? new http.Agent(KEEP_ALIVE) };
}

function reply(incoming: IncomingMessage): HttpReply {
  return {
    status: incoming.statusCode ?? 0,
    header(name) {
      const value = incoming.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    body: chunksOf(incoming),
  };
}

/**
 * The response read chunk by chunk. Cancelling destroys it, which closes the connection
 * unless the body had already arrived in full (then the socket goes back to the agent).
 */
function chunksOf(incoming: IncomingMessage): ChunkReader {
  const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer, undefined>;
  return {
    read: () => chunks.next() as Promise<ReadableStreamReadResult<Uint8Array>>,
    cancel: async () => {
      await chunks.return?.();
    },
  };
}
