/**
 * Where the frames of resumable SSE streams wait for a client that reconnects
 * (docs/resumable-streams.md). The server numbers each stream's frames from 1 and appends them
 * here as the handler produces them; a reconnect naming the last one it saw reads the rest,
 * then the live tail, up to the final response. MemoryEventStore serves one process; a shared
 * store (`redisEventStore` from `@rcp-gen/runtime/redis`) lets another replica serve a
 * reconnect while the handler runs on the first.
 */

import { Countdown } from "./countdown.js";

/** One frame of a stream: its number (1, 2, …), its JSON text, and whether it is the final response. */
export interface StoredEvent {
  readonly seq: number;
  readonly data: string;
  readonly final: boolean;
}

/** What every stream of a store is bounded by. */
export interface EventStoreLimits {
  /** Frames kept per stream; past it the oldest progress frame is dropped (the final response never is). */
  readonly maxFrames: number;
  /** Bytes of frame text kept per stream; past it the oldest progress frames are dropped. */
  readonly maxBytes: number;
  /**
   * How long a stream is kept after its last frame; then it is gone and a reconnect is refused.
   * In memory a stream still running is kept however long its handler is silent.
   */
  readonly ttlMs: number;
}

/**
 * A store of resumable streams. Every method may answer at once or with a promise; a promise
 * that rejects means the store cannot be reached, and the server then serves what it holds in
 * its own memory (docs/resumable-streams.md, "Outages").
 */
export interface EventStore {
  /** Starts a stream owned by `owner` (the caller's identity and session; compared verbatim on resume). */
  open(stream: string, owner: string, limits: EventStoreLimits): void | Promise<void>;
  /** Appends the next frame; the server appends in order, one stream from one place. */
  append(stream: string, event: StoredEvent, limits: EventStoreLimits): void | Promise<void>;
  /** The stream's owner, or undefined when it is unknown or has expired. */
  owner(stream: string): string | undefined | Promise<string | undefined>;
  /**
   * The frames after `after` in order, then each new one as it is appended, ending after the
   * final response, when the stream expires, or when `signal` aborts.
   */
  read(stream: string, after: number, signal: AbortSignal): AsyncIterable<StoredEvent>;
  /** A reader is serving the stream somewhere: its handler may not be abandoned for `ms`. */
  attach(stream: string, ms: number): void | Promise<void>;
  /** Whether a reader attached within its last `ms`. */
  attached(stream: string): boolean | Promise<boolean>;
  /** Asks whoever runs the stream's handler to abort it (an explicit cancel). */
  cancel(stream: string): void | Promise<void>;
  /** Calls `listener` with each stream for which `cancel` was called, from any process sharing the store. */
  onCancel(listener: (stream: string) => void): void | Promise<void>;
}

/** Hears a stream's frames as they are appended, in the append's own call, and its end when it expires. */
export interface StreamFollower {
  frame(event: StoredEvent): void;
  gone(): void;
}

interface KeptStream {
  readonly owner: string;
  readonly events: StoredEvent[];
  bytes: number;
  readonly followers: Set<StreamFollower>;
  attachedUntil: number;
  readonly expiry: Countdown;
}

/** Streams in this process's memory: the default store, and each server's own copy of the streams it runs. */
export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, KeptStream>();
  readonly #cancelListeners: Array<(stream: string) => void> = [];

  /** Streams held now (for tests and metrics). */
  get size(): number {
    return this.#streams.size;
  }

  /** Whether the stream is held here (known and not expired). */
  has(stream: string): boolean {
    return this.#streams.has(stream);
  }

  open(stream: string, owner: string, limits: EventStoreLimits): void {
    const expiry = new Countdown(limits.ttlMs, () => this.#expire(stream));
    this.#streams.set(stream, { owner, events: [], bytes: 0, followers: new Set(), attachedUntil: 0, expiry });
  }

  append(stream: string, event: StoredEvent, limits: EventStoreLimits): void {
    const kept = this.#streams.get(stream);
    if (kept === undefined) return;
    kept.events.push(event);
    kept.bytes += event.data.length;
    while (
      (kept.events.length > limits.maxFrames || kept.bytes > limits.maxBytes) &&
      kept.events.length > 1 &&
      !kept.events[0]!.final
    )
      kept.bytes -= kept.events.shift()!.data.length;
    kept.expiry.restart();
    for (const follower of kept.followers) follower.frame(event);
  }

  owner(stream: string): string | undefined {
    return this.#streams.get(stream)?.owner;
  }

  /** The frames kept after `after`, in order, or undefined when the stream is not held. */
  since(stream: string, after: number): StoredEvent[] | undefined {
    const events = this.#streams.get(stream)?.events;
    if (events === undefined) return undefined;
    // Frames are numbered without holes, so the next one's index follows from the first kept.
    const first = events.length === 0 ? after + 1 : events[0]!.seq;
    return events.slice(Math.max(0, after + 1 - first));
  }

  /** Has `follower` hear each frame appended from now on, and the stream's expiry; returns how to stop. */
  follow(stream: string, follower: StreamFollower): () => void {
    const followers = this.#streams.get(stream)?.followers;
    followers?.add(follower);
    return () => void followers?.delete(follower);
  }

  async *read(stream: string, after: number, signal: AbortSignal): AsyncIterable<StoredEvent> {
    let wake: (() => void) | undefined;
    const stir = (): void => wake?.();
    const unfollow = this.follow(stream, { frame: stir, gone: stir });
    signal.addEventListener("abort", stir, { once: true });
    let last = after;
    try {
      while (!signal.aborted) {
        const events = this.since(stream, last);
        if (events === undefined) return;
        // Nothing new: wait for the next append (or the expiry, or the abort), then look again.
        if (events.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        for (const event of events) {
          yield event;
          last = event.seq;
          if (event.final) return;
        }
      }
    } finally {
      unfollow();
      signal.removeEventListener("abort", stir);
    }
  }

  attach(stream: string, ms: number): void {
    const kept = this.#streams.get(stream);
    if (kept !== undefined) kept.attachedUntil = Math.max(kept.attachedUntil, Date.now() + ms);
  }

  attached(stream: string): boolean {
    return (this.#streams.get(stream)?.attachedUntil ?? 0) > Date.now();
  }

  cancel(stream: string): void {
    for (const listener of this.#cancelListeners) listener(stream);
  }

  onCancel(listener: (stream: string) => void): void {
    this.#cancelListeners.push(listener);
  }

  #expire(stream: string): void {
    const kept = this.#streams.get(stream);
    if (kept === undefined) return;
    // A stream without its final response has a live producer in this process: a silent handler keeps it.
    if (kept.events.at(-1)?.final !== true) return kept.expiry.restart();
    this.#streams.delete(stream);
    for (const follower of kept.followers) follower.gone();
  }
}
