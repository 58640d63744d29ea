/**
 * The contract between the transport-neutral HTTP core and its two thin adapters
 * (node:http and the Web fetch handler): a request view in, a buffered body or an event
 * stream out.
 */
import type { HttpRequestInfo } from "./options.js";

/** Why a request body was not read whole; each is answered before the rest of the body is awaited. */
export type UnreadBody = "too-large" | "given-up" | "malformed";

export interface HttpExchange {
  readonly request: HttpRequestInfo;
  /** Whether the whole body has already been received (read without waiting on the client). */
  readonly bodyArrived: boolean;
  /**
   * The body's bytes, or why they will not all be read: `too-large` past `limit` bytes (read no
   * further), `given-up` when the server stops waiting first (giveUpBody), `malformed` when its
   * framing broke (the HTTP parser refused it, or the client half-closed before it could end).
   * Short of the bytes, the connection is closed once the answer is sent.
   */
  readBody(limit: number): Promise<Uint8Array | UnreadBody>;
  /** Stops waiting for the body being read (too slow, or pushed out): readBody resolves with `given-up`. */
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
