/**
 * The HTTP client transport's exchange for Node hosts, over node:http and node:https with
 * keep-alive agents. It costs less per request than `fetch` (undici's fetch wraps each
 * exchange in Web streams, Request and Response objects), which matters where one process
 * makes many small RCP calls, like a federator fanning each retrieve out to its engines.
 * Parsing and framing are Node's own (llhttp): a response whose body cannot be delimited,
 * or whose head is malformed or too large, fails the exchange and closes its connection.
 */
import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import type { Agent as HttpsAgent } from "node:https";
import type { ChunkReader } from "../framing/bounded-body.js";
import type { HttpExchange, HttpPost, HttpReply } from "./http-exchange.js";

/** Options of `nodeHttpExchange`: the agents whose sockets it keeps alive, and how many idle ones. */
export interface NodeHttpExchangeOptions {
  /** The agent for `http:` URLs; default one of this exchange's own, keep-alive. */
  agent?: HttpAgent;
  /** The agent for `https:` URLs; default one of this exchange's own, keep-alive. */
  httpsAgent?: HttpsAgent;
  /** Idle kept-alive connections kept per host and port by this exchange's own agents; default 32. */
  maxIdleSockets?: number;
}

/** The exchange, and how to let go of its kept-alive connections. */
export type NodeHttpExchange = HttpExchange & {
  /** Closes idle connections (and this exchange's own agents'); those in use close when their exchange ends. */
  close(): void;
};

type Scheme = "http:" | "https:";

interface Client {
  request(options: RequestOptions, onResponse: (incoming: IncomingMessage) => void): ClientRequest;
  agent: HttpAgent;
}

/** Where a POST goes, parsed once per URL. */
interface Target {
  scheme: Scheme;
  options: RequestOptions;
}

/** Distinct URLs remembered parsed: a transport POSTs to one per method, so few in practice. */
const MAX_TARGETS = 256;
// Framing is Node's job, whatever the caller's headers say.
const FRAMING_HEADERS = new Set(["content-length", "transfer-encoding"]);

/** An exchange for `HttpClientTransportOptions.exchange` (and so for a Selector's `http` option). */
export function nodeHttpExchange(options: NodeHttpExchangeOptions = {}): NodeHttpExchange {
  const targets = new Map<string, Target>();
  const clients: Partial<Record<Scheme, Client>> = {};
  const loading: Partial<Record<Scheme, Promise<Client>>> = {};
  const ownAgents: HttpAgent[] = [];
  const agentOptions = { keepAlive: true, noDelay: true, maxFreeSockets: options.maxIdleSockets ?? 32 };

  const load = (scheme: Scheme): Promise<Client> =>
    (loading[scheme] ??= loadClient(scheme, options, agentOptions, ownAgents).then(
      (client) => (clients[scheme] = client),
    ));

  const exchange: HttpExchange = async (post) => {
    const target = targets.get(post.url) ?? targetOf(targets, post.url);
    const client = clients[target.scheme] ?? (await load(target.scheme));
    return postWithRetry(client, target, post);
  };
  return Object.assign(exchange, {
    close() {
      for (const agent of ownAgents) agent.destroy();
    },
  });
}

function targetOf(targets: Map<string, Target>, url: string): Target {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new TypeError(`not an http: or https: URL: ${url}`);
  const target: Target = {
    scheme: parsed.protocol,
    options: {
      method: "POST",
      // URL keeps the brackets of an IPv6 host; connecting needs the bare address.
      hostname: parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname,
      port: parsed.port === "" ? undefined : Number(parsed.port),
      path: `${parsed.pathname}${parsed.search}`,
    },
  };
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(url, target);
  return target;
}

/** node:http and node:https load on first use, so importing the Node entry stays cheap. */
async function loadClient(
  scheme: Scheme,
  options: NodeHttpExchangeOptions,
  agentOptions: ConstructorParameters<typeof HttpAgent>[0],
  own: HttpAgent[],
): Promise<Client> {
  const made = <T extends HttpAgent>(agent: T): T => (own.push(agent), agent);
  if (scheme === "https:") {
    const https = await import("node:https");
    return { request: https.request, agent: options.httpsAgent ?? made(new https.Agent(agentOptions)) };
  }
  const http = await import("node:http");
  return { request: http.request, agent: options.agent ?? made(new http.Agent(agentOptions)) };
}

/**
 * A request sent on a reused connection that the server closed before answering is sent
 * again: the server may have closed the idle connection just as the request went out. A
 * closed connection leaves the agent, so this ends once the agent has no idle one left.
 */
async function postWithRetry(client: Client, target: Target, post: HttpPost): Promise<HttpReply> {
  const headers: Record<string, string> = {};
  for (const name in post.headers) if (!FRAMING_HEADERS.has(name.toLowerCase())) headers[name] = post.headers[name]!;
  headers["content-length"] = String(Buffer.byteLength(post.body));
  const options: RequestOptions = { ...target.options, method: post.method ?? "POST", agent: client.agent, headers };
  for (;;) {
    if (post.signal.aborted) throw abortError(post.signal.reason);
    const attempt = await postOnce(client, options, post);
    if ("reply" in attempt) return attempt.reply;
    if (!attempt.reused || (attempt.error as { code?: unknown }).code !== "ECONNRESET" || post.signal.aborted)
      throw attempt.error;
  }
}

type Attempt = { reply: HttpReply } | { error: unknown; reused: boolean };

/**
 * `body` stays a string: Node joins it to the head as one piece, where a Buffer would go as a
 * piece of its own. The abort listener is this exchange's own rather than node:http's `signal`
 * option, which costs a stream-end watcher per request; it is dropped once the request closes
 * (its response read, or the connection gone), and an abort after the response arrived in full
 * leaves the body to be read.
 */
function postOnce(client: Client, options: RequestOptions, post: HttpPost): Promise<Attempt> {
  return new Promise<Attempt>((resolve) => {
    let incoming: IncomingMessage | undefined;
    const outgoing = client.request(options, (response) => {
      incoming = response;
      if (response.statusCode! >= 200) return resolve({ reply: reply(response) });
      // Node skips the other 1xx: this is 101, and a POST that asked for no upgrade cannot switch protocols.
      outgoing.destroy(new Error(`HTTP ${response.statusCode} to a request that asked for no upgrade`));
    });
    const { signal } = post;
    const onAbort = (): void => {
      if (incoming?.complete !== true) outgoing.destroy(abortError(signal.reason));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    outgoing.once("close", () => signal.removeEventListener("abort", onAbort));
    outgoing.on("error", (error) => resolve({ error, reused: outgoing.reusedSocket }));
    outgoing.end(post.body);
  });
}

/** What node:http's own `signal` option fails a request with. */
function abortError(reason: unknown): Error {
  return Object.assign(new Error("The operation was aborted", { cause: reason }), {
    name: "AbortError",
    code: "ABORT_ERR",
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

const DONE: ReadableStreamReadResult<Uint8Array> = Object.freeze({ done: true, value: undefined });

/**
 * The response read chunk by chunk through the stream's own `read()`, with its backpressure:
 * unread chunks stop the socket. Not its async iterator, which costs a generator and a
 * stream-end watcher per response, where a buffered body is usually one `read()`. Cancelling
 * destroys the response, which closes the connection unless the body had already been read
 * in full (then the socket goes back to the agent).
 */
function chunksOf(incoming: IncomingMessage): ChunkReader {
  return {
    read: () => nextChunk(incoming),
    cancel: () => {
      incoming.destroy();
      return Promise.resolve();
    },
  };
}

function nextChunk(incoming: IncomingMessage): Promise<ReadableStreamReadResult<Uint8Array>> {
  const chunk = incoming.read() as Buffer | null;
  if (chunk !== null) return Promise.resolve({ done: false, value: chunk });
  if (incoming.readableEnded) return Promise.resolve(DONE);
  if (incoming.destroyed) return Promise.reject(incoming.errored ?? new Error("aborted: the response was cut short"));
  // Done only at "end", once the socket is on its way back to the agent for the next request.
  return new Promise((resolve, reject) => {
    const next = (): void => {
      incoming.off("readable", next);
      incoming.off("end", next);
      incoming.off("close", next);
      nextChunk(incoming).then(resolve, reject);
    };
    incoming.on("readable", next);
    incoming.on("end", next);
    incoming.on("close", next);
  });
}
