/**
 * The contract between BaseClient and a way of reaching a server. A transport only moves
 * frames: it hands every incoming frame to one sink, sends outgoing frames, and reports its
 * own death. Correlation, timeouts and capability rules live in the client.
 */
import type { JsonObject, RequestId } from "../protocol/types.js";

/** A request a client sends. */
export interface OutgoingRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params: JsonObject;
}

/** A notification a client sends (`notifications/cancel`). */
export interface OutgoingNotification {
  jsonrpc: "2.0";
  method: string;
  params: JsonObject;
}

/** A frame a client sends. */
export type OutgoingFrame = OutgoingRequest | OutgoingNotification;

/** Where a transport delivers what it receives. */
export interface ClientTransportSink {
  /**
   * One parsed, unvalidated incoming frame. `exchange` is the id of the request whose own
   * response carried it (HTTP), so request-scoped notifications can be routed without a token.
   */
  receive(frame: unknown, exchange?: RequestId): void;
  /** The transport is gone (process exit, EPIPE); every pending call fails with `error`. */
  closed(error: Error): void;
}

/** Per-frame options a transport may use. */
export interface SendOptions {
  /**
   * Aborting ends the request's exchange (request-scoped transports, §5.2). A transport's
   * close() ends the exchanges it started without one; whoever passes a signal aborts it.
   */
  signal?: AbortSignal;
  /** The call asked for progress or logs, so a streamed response is wanted (§9). */
  stream?: boolean;
  /** Request headers of this call (request-scoped transports; a connection has none to send). */
  headers?: Readonly<Record<string, string>>;
}

/** How a client reaches a server: stdio, HTTP, memory, or a transport of your own. */
export interface ClientTransport {
  /**
   * How an in-flight call is cancelled (§7.14): by sending `notifications/cancel` on the
   * connection, or by aborting the request's own exchange (HTTP).
   */
  readonly cancellation: "notification" | "abort";
  /** Begins delivering frames to `sink`; called once, before the first send. */
  start(sink: ClientTransportSink): Promise<void>;
  /**
   * Sends one frame. On a connection it settles once the frame is handed to the OS (write
   * backpressure respected); on a request-scoped transport once the exchange has ended.
   * A rejection fails the call the frame belongs to.
   */
  send(frame: OutgoingFrame, options?: SendOptions): Promise<void>;
  /** Ends the connection and releases what the transport holds (child process, sockets). */
  close(): Promise<void>;
}

/**
 * Largest frame a client transport reads by default (a stdio line, a buffered HTTP body, one
 * SSE event): enough for a 2,000 x 1,024 embedding batch as JSON, bounded against a hostile server.
 */
export const DEFAULT_CLIENT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A failure below JSON-RPC: the peer went away or never spoke RCP (no §12 code applies). */
export class TransportError extends Error {
  /** The HTTP status, when the failure was an unmapped HTTP response. */
  readonly status: number | undefined;
  /**
   * The connection itself is gone (a stdio server's pipe broke, or it exited), not only this
   * call's request: nothing sent on it can succeed, so the retry policy never retries it.
   */
  readonly connectionLost: boolean;

  constructor(message: string, options?: { status?: number; cause?: unknown; connectionLost?: boolean }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TransportError";
    this.status = options?.status;
    this.connectionLost = options?.connectionLost ?? false;
  }
}

/** One received frame's text as JSON; undefined when it is not JSON, which callers skip. */
export function parseFrame(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
