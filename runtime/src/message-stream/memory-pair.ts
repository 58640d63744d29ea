/**
 * A linked in-memory client/server pair for tests. Frames cross as JSON text, one message
 * at a time and asynchronously, exactly as a stdio line would: the server side reuses its
 * text dispatch, and neither side can see the other's objects.
 */
import { parseFrame, TransportError, type ClientTransport } from "../client/transport.js";

/** The server's end: JSON text in both directions. */
export interface MemoryServerEnd {
  /** Sends one serialised frame to the client. */
  send(json: string): void;
  /** Receives each frame the client sends; frames sent before this is set are kept. */
  onMessage(handler: (json: string) => void): void;
  /** Runs once when the client closes its end (the equivalent of EOF on stdin, §5.1). */
  onClose(handler: () => void): void;
  /** Closes the pair from the server side; the client's pending calls fail. */
  close(): void;
}

/** Both ends of an in-memory connection. */
export interface MemoryTransportPair {
  client: ClientTransport;
  server: MemoryServerEnd;
}

/** One direction of the pair: queues until a receiver is attached, then delivers in order. */
class Channel<T> {
  #receiver: ((message: T) => void) | undefined;
  readonly #queued: T[] = [];

  attach(receiver: (message: T) => void): void {
    this.#receiver = receiver;
    for (const message of this.#queued.splice(0)) this.post(message);
  }

  post(message: T): void {
    const receiver = this.#receiver;
    if (receiver === undefined) this.#queued.push(message);
    else queueMicrotask(() => receiver(message));
  }
}

/** A client transport and a server end joined in memory, frames crossing as JSON text (the generated `connectMemory` uses it). */
export function createMemoryTransportPair(): MemoryTransportPair {
  const toServer = new Channel<string>();
  // null is the server hanging up; it travels behind the frames already sent, like EOF.
  const toClient = new Channel<string | null>();
  const closeHandlers: Array<() => void> = [];
  let closed = false;
  const closeFrom = (side: "client" | "server"): void => {
    if (closed) return;
    closed = true;
    for (const handler of closeHandlers) queueMicrotask(handler);
    if (side === "server") toClient.post(null);
  };
  const client: ClientTransport = {
    cancellation: "notification",
    start(sink) {
      toClient.attach((json) => {
        if (json === null) {
          sink.closed(new TransportError("Server closed the in-memory connection"));
          return;
        }
        const frame = parseFrame(json);
        if (frame !== undefined) sink.receive(frame);
      });
      return Promise.resolve();
    },
    send(frame) {
      if (closed) return Promise.reject(new TransportError("In-memory connection closed"));
      toServer.post(JSON.stringify(frame));
      return Promise.resolve();
    },
    close() {
      closeFrom("client");
      return Promise.resolve();
    },
  };
  const server: MemoryServerEnd = {
    send: (json) => {
      if (!closed) toClient.post(json);
    },
    onMessage: (handler) => toServer.attach(handler),
    onClose: (handler) => void closeHandlers.push(handler),
    close: () => closeFrom("server"),
  };
  return { client, server };
}
