/**
 * Drives one message-stream connection (stdio, in-memory): text frames in, replies out in
 * completion order, and a count of replies still owed so that a shutdown or EOF can wait
 * for every in-flight request to be answered and written (§5.1, §7.12).
 */
import type { Inbound, ServerCore, Reply } from "../server/core.js";
import type { FrameChannel } from "../server/context.js";
import type { RequestOrigin } from "../protocol/request-origin.js";
import { Connection } from "../server/connection.js";
import { errorFrame } from "../protocol/serialize.js";
import { ErrorCode } from "../protocol/errors.js";
import { NOT_UTF8 } from "../framing/parse-frame.js";

export class MessagePump {
  readonly connection: Connection;
  readonly #inbound: Inbound;
  #owed = 0;
  #onSettled: Array<() => void> = [];

  constructor(
    readonly core: ServerCore,
    /** Writes one frame (without a terminator) to the peer. */
    readonly channel: FrameChannel,
    /** Who is at the other end, the same for every request of the connection. */
    origin: RequestOrigin,
  ) {
    this.connection = new Connection(core.newSession());
    this.#inbound = { connection: this.connection, channel, origin };
  }

  receive(text: string): void {
    this.#deliver(this.core.handleText(text, this.#inbound));
  }

  /** A frame above the size limit: -32013, and the connection goes on (§15.5). */
  rejectOversized(bytes: number): void {
    this.channel.send(
      errorFrame(null, {
        code: ErrorCode.PayloadTooLarge,
        message: `Payload too large: a ${bytes}-byte message exceeds ${this.core.limits.maxMessageBytes} bytes`,
      }),
    );
  }

  /** A frame whose bytes are not UTF-8: -32700 with id null, like any unparseable frame. */
  rejectNotUtf8(): void {
    this.channel.send(errorFrame(null, NOT_UTF8.error));
  }

  /** True once `shutdown` was answered or `endInput()` was called. */
  get closing(): boolean {
    return this.connection.closing;
  }

  /** EOF: no more requests; in-flight ones still finish. */
  endInput(): void {
    this.connection.closing = true;
  }

  /** Resolves when every reply owed so far has been written. */
  settled(): Promise<void> {
    if (this.#owed === 0) return Promise.resolve();
    return new Promise((resolve) => this.#onSettled.push(resolve));
  }

  /** The transport died: abort every handler; nothing more is written. */
  abandon(): void {
    this.connection.abandonAll();
  }

  #deliver(reply: Reply): void {
    if (reply === undefined) return;
    if (typeof reply === "string") {
      this.channel.send(reply);
      return;
    }
    this.#owed++;
    // A reply never rejects (a failed handler is answered with an error frame); the pump goes on
    // reading while it is pending.
    void reply.then((frame) => {
      if (frame !== undefined) this.channel.send(frame);
      if (--this.#owed === 0) for (const wake of this.#onSettled.splice(0)) wake();
    });
  }
}
