/**
 * One registry engine and its client, connected on first use. A failed connection is
 * forgotten, so the next use tries again: an engine that was down (or not yet listening) when
 * a federation started joins as soon as it answers.
 */
import type { EngineEntry } from "./registry.js";

/** What federation and selection need of a generated client (`RcpClient` is one). */
export interface EngineClient {
  readonly serverInfo: Readonly<{ name: string; version: string }> | undefined;
  readonly serverCapabilities: Readonly<Record<string, unknown>> | undefined;
  supports(path: string): boolean;
  close(): Promise<void>;
}

export class EngineHandle<C extends EngineClient> {
  readonly entry: EngineEntry;
  readonly #open: () => Promise<C>;
  #connecting: Promise<C> | undefined;
  #client: C | undefined;
  #closed = false;

  constructor(entry: EngineEntry, open: () => Promise<C>) {
    this.entry = entry;
    this.#open = open;
  }

  get id(): string {
    return this.entry.id;
  }

  /** The connected client, once a connection succeeded. */
  get client(): C | undefined {
    return this.#client;
  }

  /** The connected client: the current one, one being connected, or a new attempt. */
  connect(): Promise<C> {
    if (this.#closed) return Promise.reject(new Error(`engine ${this.id}: closed`));
    this.#connecting ??= this.#open().then(
      (client) => {
        if (this.#closed) {
          void client.close();
          throw new Error(`engine ${this.id}: closed`);
        }
        this.#client = client;
        return client;
      },
      (error: unknown) => {
        this.#connecting = undefined;
        throw error;
      },
    );
    return this.#connecting;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close();
  }
}
