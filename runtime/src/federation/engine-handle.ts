/**
 * One registry engine and its client, connected on first use. A failed connection is
 * forgotten, so the next use tries again: an engine that was down (or not yet listening) when
 * a federation started joins as soon as it answers. A client whose transport died (a stdio
 * engine that crashed) is dropped too, and the engine is started again on next use; an engine
 * that keeps dying is restarted after a growing pause, so a crash loop costs little. It also
 * remembers how long the engine takes to answer, so a fan-out can ask the slowest engine first.
 */
import { TransportError } from "../client/transport.js";
import type { EngineEntry } from "./registry.js";

/** What federation and selection need of a generated client (`RcpClient` is one). */
export interface EngineClient {
  readonly serverInfo: Readonly<{ name: string; version: string }> | undefined;
  readonly serverCapabilities: Readonly<Record<string, unknown>> | undefined;
  /** Whether the engine advertised the capability at this dotted path. */
  supports(path: string): boolean;
  /** Ends the connection. */
  close(): Promise<void>;
}

/** How much the newest call weighs in an engine's expected latency. */
const LATENCY_SMOOTHING = 0.2;
/** Pause before reconnecting after the n-th loss in a row (n ≥ 1): doubling from this, up to the cap. */
const RECONNECT_BASE_MS = 100;
const RECONNECT_CAP_MS = 10_000;

/** One engine of a federation: its registry entry and its client, connected on first use. */
export class EngineHandle<C extends EngineClient> {
  readonly entry: EngineEntry;
  readonly #open: () => Promise<C>;
  #connecting: Promise<C> | undefined;
  #client: C | undefined;
  #closed = false;
  #expectedMs: number | undefined;
  /** Clients lost since the engine last answered, and when the next connection may be tried. */
  #losses = 0;
  #reconnectAt = 0;

  constructor(entry: EngineEntry, open: () => Promise<C>) {
    this.entry = entry;
    this.#open = open;
  }

  /** The engine's id in the registry. */
  get id(): string {
    return this.entry.id;
  }

  /** How long this engine's calls take, smoothed over the recent ones; undefined before the first. */
  get expectedLatencyMs(): number | undefined {
    return this.#expectedMs;
  }

  /** The engine answered a call: it is healthy, and a later loss reconnects at once. */
  answered(): void {
    this.#losses = 0;
  }

  /**
   * A call failed on `client`'s transport: a dead transport fails every later call, so the
   * client is dropped and the next use connects (a stdio engine is started) again.
   */
  lost(client: C): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#connecting = undefined;
    void client.close().catch(() => {});
    this.#reconnectAt =
      this.#losses === 0
        ? 0
        : performance.now() + Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** (this.#losses - 1));
    this.#losses += 1;
  }

  /** Records how long one call to this engine took. */
  observeLatency(ms: number): void {
    const previous = this.#expectedMs;
    this.#expectedMs = previous === undefined ? ms : previous + LATENCY_SMOOTHING * (ms - previous);
  }

  /** The connected client, once a connection succeeded. */
  get client(): C | undefined {
    return this.#client;
  }

  /** The connected client: the current one, one being connected, or a new attempt. */
  connect(): Promise<C> {
    if (this.#closed) return Promise.reject(new Error(`engine ${this.id}: closed`));
    if (this.#connecting === undefined && performance.now() < this.#reconnectAt) {
      return Promise.reject(new TransportError(`engine ${this.id} keeps failing; it is reconnected shortly`));
    }
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

  /** Closes the engine's client, if it was connected. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close();
  }
}
