/**
 * Kept-alive TCP connections for the raw HTTP exchange, per host and port. A connection
 * belongs to one exchange at a time (its owner), from the request until the response has
 * fully arrived; then it waits on the idle list, unref'd so it never keeps the process alive.
 * The most recently used idle connection goes first: it is the least likely to have been
 * closed by the server's keep-alive timeout.
 */
import { connect, type Socket } from "node:net";

/** What an exchange hears from the connection it owns. */
export interface ConnectionOwner {
  data(bytes: Buffer): void;
  /** The connection closed under the exchange (peer, network, or an error). */
  closed(error: Error | undefined): void;
}

export interface Endpoint {
  /** `host:port`, the pool's key. */
  key: string;
  /** For connect: no brackets around an IPv6 address. */
  hostname: string;
  port: number;
}

export class Connection {
  owner: ConnectionOwner | undefined;
  /** True once it carried a response: a failure before any reply may be the idle-close race. */
  reused = false;
  #error: Error | undefined;
  readonly socket: Socket;
  readonly endpoint: Endpoint;

  constructor(endpoint: Endpoint, onClose: (connection: Connection) => void) {
    this.endpoint = endpoint;
    this.socket = connect({ host: endpoint.hostname, port: endpoint.port, noDelay: true });
    this.socket.on("data", (bytes: Buffer) => {
      // Bytes nobody asked for (on an idle connection) mean the stream is out of step.
      if (this.owner === undefined) this.socket.destroy();
      else this.owner.data(bytes);
    });
    this.socket.on("error", (error) => (this.#error = error));
    this.socket.on("close", () => {
      onClose(this);
      const owner = this.owner;
      this.owner = undefined;
      owner?.closed(this.#error);
    });
  }

  /** Ends it without telling the owner (who asked for it). */
  destroy(): void {
    this.owner = undefined;
    this.socket.destroy();
  }
}

export class SocketPool {
  readonly #idle = new Map<string, Connection[]>();
  readonly #maxIdle: number;
  #closed = false;

  constructor(maxIdlePerHost: number) {
    this.#maxIdle = maxIdlePerHost;
  }

  /** An idle connection to the endpoint, or a new one. */
  acquire(endpoint: Endpoint): Connection {
    const idle = this.#idle.get(endpoint.key);
    for (let connection = idle?.pop(); connection !== undefined; connection = idle!.pop()) {
      // One closing now is still listed until its 'close' event.
      if (connection.socket.destroyed || !connection.socket.writable) continue;
      connection.socket.ref();
      return connection;
    }
    return this.connect(endpoint);
  }

  /** Always a new connection. */
  connect(endpoint: Endpoint): Connection {
    return new Connection(endpoint, (closed) => this.#forget(closed));
  }

  /** Back to the idle list once its response has fully arrived, or closed when the list is full. */
  release(connection: Connection): void {
    connection.owner = undefined;
    connection.reused = true;
    const idle = this.#idle.get(connection.endpoint.key) ?? [];
    if (this.#closed || idle.length >= this.#maxIdle || connection.socket.destroyed) return connection.destroy();
    // A reader that fell behind may have paused it just as the last bytes arrived.
    if (connection.socket.isPaused()) connection.socket.resume();
    connection.socket.unref();
    idle.push(connection);
    if (idle.length === 1) this.#idle.set(connection.endpoint.key, idle);
  }

  /** Closes the idle connections; those in use close when their exchange ends. */
  close(): void {
    this.#closed = true;
    for (const idle of this.#idle.values()) for (const connection of idle.splice(0)) connection.destroy();
  }

  #forget(connection: Connection): void {
    const idle = this.#idle.get(connection.endpoint.key);
    const at = idle?.indexOf(connection) ?? -1;
    if (at !== -1) idle!.splice(at, 1);
  }
}
