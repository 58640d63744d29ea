/**
 * The contract between the transport-neutral HTTP core and its two thin adapters
 * (node:http and the Web fetch handler): a request view in, a buffered body or an event
 * stream out.
 */
import type { HttpRequestInfo } from "./options.js";

export interface HttpExchange {
  readonly request: HttpRequestInfo;
  /** Whether the whole body has already been received (read without waiting on the client). */
  readonly bodyArrived: boolean;
  /**
   * The body's bytes, or null when they exceed `limit` bytes (read no further) or the server
   * gives up on them first (then the connection is closed once the answer is sent).
   */
  readBody(limit: number): Promise<Uint8Array | null>;
  /** Stops waiting for the body being read (too slow, or pushed out): readBody resolves with null. */
  giveUpBody(): void;
  /** A complete response. */
  respond(status: number, headers: Readonly<Record<string, string>>, body: string): void;
  /** Starts a 200 event stream with these headers; the socket is set to no-delay. */
  startStream(headers: Readonly<Record<string, string>>): void;
  /** Writes stream text; false when the client is behind (the text was still taken). A no-op once it has gone. */
  write(text: string): boolean;
  /** Calls `listener` once, when the client has caught up after `write` returned false. */
  onDrain(listener: () => void): void;
  end(): void;
  /** Each listener is called at most once, if the client goes away before `end()` / `respond()`. */
  onAbort(listener: () => void): void;
}
