/**
 * The HTTP client transport's exchange for Node hosts. It costs less per request than `fetch`
 * (undici's fetch wraps each exchange in Web streams, Request and Response objects), which
 * matters where one process makes many small RCP calls, like a federator fanning each
 * retrieve out to its engines. `http:` URLs go over this exchange's own kept-alive
 * connections (raw-http-exchange.ts), cheaper again than node:http; `https:` URLs, and
 * `http:` ones when the caller brings an agent, go through node:https / node:http.
 * Connections are sent without Nagle delay; each request goes out as one write.
 */
import type { Agent as HttpAgent, IncomingMessage, request as httpRequest } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { ChunkReader } from "../framing/bounded-body.js";
import type { HttpExchange, HttpPost, HttpReply } from "./http-exchange.js";
import { rawPost, type RawTarget } from "./raw-http-exchange.js";
import { SocketPool } from "./socket-pool.js";

/** Options of `nodeHttpExchange`: the agents whose sockets it keeps alive, and how many idle ones. */
export interface NodeHttpExchangeOptions {
  /** An agent for `http:` URLs: requests then go through node:http with it instead of the raw connections. */
  agent?: HttpAgent;
  /** The agent for `https:` URLs; default one of this exchange's own, keep-alive. */
  httpsAgent?: HttpsAgent;
  /** Idle kept-alive connections kept per host and port for `http:` URLs; default 32. */
  maxIdleSockets?: number;
}

/** The exchange, and how to let go of its kept-alive connections. */
export type NodeHttpExchange = HttpExchange & {
  /** Closes idle connections (and this exchange's own agents'); those in use close when their exchange ends. */
  close(): void;
};

type Scheme = "http:" | "https:";

interface AgentClient {
  request: typeof httpRequest;
  agent: HttpAgent;
}

const KEEP_ALIVE = { keepAlive: true, noDelay: true };
/** Distinct URLs remembered parsed: a transport POSTs to one per method, so few in practice. */
const MAX_TARGETS = 256;

/** An exchange for `HttpClientTransportOptions.exchange` (and so for a Selector's `http` option). */
export function nodeHttpExchange(options: NodeHttpExchangeOptions = {}): NodeHttpExchange {
  const pool = new SocketPool(options.maxIdleSockets ?? 32);
  const targets = new Map<string, RawTarget | URL>();
  const clients: Partial<Record<Scheme, Promise<AgentClient>>> = {};
  const ownAgents: HttpAgent[] = [];

  const targetOf = (url: string): RawTarget | URL => {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
      throw new TypeError(`not an http: or https: URL: ${url}`);
    const target = parsed.protocol === "https:" || options.agent !== undefined ? parsed : rawTarget(parsed);
    if (targets.size >= MAX_TARGETS) targets.clear();
    targets.set(url, target);
    return target;
  };

  const agentPost = async (target: URL, post: HttpPost): Promise<HttpReply> => {
    const scheme = target.protocol as Scheme;
    const client = await (clients[scheme] ??= agentClient(scheme, options, ownAgents));
    return postThroughAgent(client, target, post);
  };

  // Not async: a raw POST is already a promise, and one more would cost a tick per request.
  const exchange: HttpExchange = (post) => {
    try {
      const target = targets.get(post.url) ?? targetOf(post.url);
      return target instanceof URL ? agentPost(target, post) : rawPost(pool, target, post);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return Object.assign(exchange, {
    close() {
      pool.close();
      for (const agent of ownAgents) agent.destroy();
    },
  });
}

function rawTarget(url: URL): RawTarget {
  const port = Number(url.port || 80);
  // URL keeps the brackets of an IPv6 host; connecting needs the bare address.
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return { key: `${hostname}:${port}`, hostname, port, host: url.host, path: `${url.pathname}${url.search}` };
}

/** node:http and node:https load on first use, so importing the Node entry stays cheap. */
async function agentClient(scheme: Scheme, options: NodeHttpExchangeOptions, own: HttpAgent[]): Promise<AgentClient> {
  const made = <T extends HttpAgent>(agent: T): T => (own.push(agent), agent);
  if (scheme === "https:") {
    const https = await import("node:https");
    return { request: https.request, agent: options.httpsAgent ?? made(new https.Agent(KEEP_ALIVE)) };
  }
  const http = await import("node:http");
  return { request: http.request, agent: options.agent ?? made(new http.Agent(KEEP_ALIVE)) };
}

function postThroughAgent({ request, agent }: AgentClient, target: URL, post: HttpPost): Promise<HttpReply> {
  const payload = Buffer.from(post.body);
  return new Promise<HttpReply>((resolve, reject) => {
    const headersWithLength: Record<string, string> = Object.assign({}, post.headers);
    headersWithLength["content-length"] = String(payload.byteLength);
    const outgoing = request(
      target,
      { method: "POST", agent, headers: headersWithLength, signal: post.signal },
      (incoming) => resolve(reply(incoming)),
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
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
