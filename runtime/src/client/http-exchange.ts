/**
 * How the HTTP client transport carries one POST: the transport owns RCP's rules (headers,
 * sessions, SSE, status mapping, size limits), an exchange only moves bytes. The default is
 * `fetch`, which runs everywhere; a host may bring its own (`nodeHttpExchange` from
 * `@rcp-gen/runtime/node` goes through node:http's keep-alive agents, cheaper per request in Node).
 */
import type { ChunkReader } from "../framing/bounded-body.js";

/** One HTTP request an exchange sends: a POST, or a resume (GET) or cancel (DELETE) of a resumable stream with an empty body. */
export interface HttpPost {
  /** Default POST. */
  method?: "POST" | "GET" | "DELETE";
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** Aborting ends the exchange: the request, or the response still being read. */
  signal: AbortSignal;
}

/** The reply to an `HttpPost`: status, headers and the body as a stream of chunks. */
export interface HttpReply {
  readonly status: number;
  /** A response header by its lower-case name; null when absent. */
  header(name: string): string | null;
  /** The body, read chunk by chunk; cancelling it stops reading and drops the rest. */
  readonly body: ChunkReader | null;
}

/** One POST; rejects when no response arrives (connection refused, aborted). */
export type HttpExchange = (post: HttpPost) => Promise<HttpReply>;

/** The exchange over a fetch implementation (the global one when omitted). */
export function fetchExchange(fetchImpl?: typeof globalThis.fetch): HttpExchange {
  return async ({ method = "POST", url, headers, body, signal }) => {
    const request = { method, headers, body: method === "POST" ? body : undefined, signal };
    const response = await (fetchImpl ?? globalThis.fetch)(url, request);
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      body: response.body?.getReader() ?? null,
    };
  };
}
