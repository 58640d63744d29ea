/**
 * Resumable 2025 sessions of the HTTP bridge (docs/mcp.md, "Resuming a cut stream"): the MCP
 * SDK's own `EventStore` (`storeEvent`, `replayEventsAfter`) over the
 * stores of RCP's resumable streams (../resume/event-store.ts), one adapter per MCP session.
 * Event ids have RCP's form, `<stream>:<seq>` with a random stream id, and an adapter knows only
 * its own session's streams, each owned in the store by that session: an id from another
 * session names nothing here, so no frame of one session can be replayed into another.
 */
import type { EventStore as SdkEventStore, JSONRPCMessage } from "@modelcontextprotocol/server";
import { Countdown } from "../resume/countdown.js";
import { MemoryEventStore, type EventStore, type EventStoreLimits } from "../resume/event-store.js";
import { parseEventId } from "../resume/streams.js";
import { RESUMABLE_DEFAULTS, storeLimits } from "../resume/wire.js";

/** Settings of the bridge's resumable sessions (`resumable` of `mcpHttpHandler` / `listenMcp`). */
export interface McpResumableOptions {
  /** Where frames are kept; default one `MemoryEventStore` for all of the endpoint's sessions. */
  store?: EventStore;
  /** The reconnect delay the stream suggests to clients (SSE `retry:`). Default 1000 ms. */
  retryMs?: number;
  /** How long a stream's frames are kept after its last one. Default 60000 ms. */
  ttlMs?: number;
  /** Frames kept per stream; past it the oldest notifications are dropped. Default 1000. */
  maxFrames?: number;
  /** Characters of frame text kept per stream (in memory); past it the oldest notifications are dropped. Default 262144. */
  maxBytes?: number;
  /** Streams one session holds (running or kept for `ttlMs`); past it its streams are not kept, so not resumable. Default 100. */
  maxStreamsPerSession?: number;
  /** Streams the endpoint holds, every session's; past it new streams are not kept. Default 2000. */
  maxStreams?: number;
  /** Where a failure of the store is reported, one line each; default `console.error`. */
  report?: (line: string) => void;
}

/** The settings resolved once per endpoint: every session's adapter shares the store. */
export interface McpResumableSettings {
  readonly store: EventStore;
  readonly retryMs: number;
  readonly limits: EventStoreLimits;
  readonly maxStreamsPerSession: number;
  readonly maxStreams: number;
  /** Streams every session holds now. */
  readonly held: { count: number };
  readonly report: (line: string) => void;
}

export function mcpResumableSettings(options: true | McpResumableOptions): McpResumableSettings {
  const given = options === true ? {} : options;
  return {
    store: given.store ?? new MemoryEventStore(),
    retryMs: given.retryMs ?? RESUMABLE_DEFAULTS.retryMs,
    limits: storeLimits(given),
    maxStreamsPerSession: given.maxStreamsPerSession ?? RESUMABLE_DEFAULTS.maxStreamsPerCaller,
    maxStreams: given.maxStreams ?? RESUMABLE_DEFAULTS.maxStreams,
    held: { count: 0 },
    report: given.report ?? ((line) => console.error(line)),
  };
}

interface SessionStream {
  /** The SDK's name of the stream (a POST's, or its standalone GET stream's). */
  readonly sdkStream: string;
  /** The stream's key in the store. */
  readonly key: string;
  /** Whether its frames are kept: past a bound they are numbered, and a reconnect is refused. */
  readonly kept: boolean;
  /** Frames numbered so far. */
  seq: number;
  /** The last frame the store took. */
  stored: number;
  /** The store's writes, one after the other. */
  writes: Promise<void>;
  ended: boolean;
  /** Set while a reconnect is being served the frames it missed. */
  replaying?: Promise<void>;
}

/** The SDK's event store for one MCP session. */
export class McpSessionEventStore implements SdkEventStore {
  readonly #settings: McpResumableSettings;
  readonly #owner: string;
  readonly #bySdkStream = new Map<string, SessionStream>();
  /** The streams kept, by key. */
  readonly #byKey = new Map<string, SessionStream>();

  constructor(settings: McpResumableSettings, sessionId: string) {
    this.#settings = settings;
    this.#owner = `mcp-session:${sessionId}`;
  }

  async storeEvent(sdkStream: string, message: JSONRPCMessage): Promise<string> {
    const stream = this.#bySdkStream.get(sdkStream) ?? this.#open(sdkStream);
    // The SDK primes a stream by storing `{}`: its id names the stream before any frame.
    if (!("jsonrpc" in message)) return `${stream.key}:0`;
    const seq = this.#append(stream, JSON.stringify(message), "id" in message && !("method" in message));
    // A frame stored while a reconnect is replayed is written live once the SDK has moved the
    // stream onto the new connection, which it does right after the replay returns.
    if (stream.replaying !== undefined) await stream.replaying.then(nextTask);
    return `${stream.key}:${seq}`;
  }

  /**
   * Whether the event id names a stream of this session that the store still holds; the
   * endpoint refuses any other before the SDK sees it. Not the SDK's `getStreamIdForEventId`
   * on purpose: with it, the SDK answers 409 to a reconnect while it still holds the stream's
   * old connection, which after a network change may stay half-open for long; without it, the
   * reconnect supersedes that connection.
   */
  async holds(eventId: string): Promise<boolean> {
    return (await this.#owned(eventId)) !== undefined;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const stream = await this.#owned(lastEventId);
    if (stream === undefined) throw new Error(`no stream of this session has event ${lastEventId}`);
    const after = parseEventId(lastEventId)!.seq;
    let replayed!: () => void;
    stream.replaying = new Promise((resolve) => (replayed = resolve));
    const stop = new AbortController();
    try {
      await stream.writes;
      // What the store holds now; anything newer goes out live.
      const until = stream.stored;
      if (until <= after) return stream.sdkStream;
      for await (const event of this.#settings.store.read(stream.key, after, stop.signal)) {
        if (event.data !== "") await send(`${stream.key}:${event.seq}`, JSON.parse(event.data) as JSONRPCMessage);
        if (event.seq >= until || event.final) break;
      }
      return stream.sdkStream;
    } finally {
      stop.abort();
      stream.replaying = undefined;
      replayed();
    }
  }

  /** The session has ended: each of its streams still open is ended, so that it is forgotten after `ttlMs`. */
  close(): void {
    for (const stream of this.#bySdkStream.values()) if (!stream.ended) this.#append(stream, "", true);
  }

  #open(sdkStream: string): SessionStream {
    const { store, limits, held } = this.#settings;
    const key = crypto.randomUUID();
    const kept = this.#byKey.size < this.#settings.maxStreamsPerSession && held.count < this.#settings.maxStreams;
    const stream: SessionStream = {
      sdkStream,
      key,
      kept,
      seq: 0,
      stored: 0,
      writes: kept ? this.#guard("open", () => store.open(key, this.#owner, limits)) : Promise.resolve(),
      ended: false,
    };
    this.#bySdkStream.set(sdkStream, stream);
    if (kept) {
      this.#byKey.set(key, stream);
      held.count++;
    }
    return stream;
  }

  /** Numbers a frame and queues it for the store; the live connection does not wait for the store. */
  #append(stream: SessionStream, data: string, final: boolean): number {
    const { store, limits, held } = this.#settings;
    const event = { seq: ++stream.seq, data, final };
    if (stream.kept)
      stream.writes = stream.writes.then(() =>
        this.#guard("append", async () => {
          await store.append(stream.key, event, limits);
          stream.stored = event.seq;
        }),
      );
    if (final && !stream.ended) {
      stream.ended = true;
      // This session forgets the stream when the store does.
      new Countdown(stream.kept ? limits.ttlMs : 0, () => {
        this.#bySdkStream.delete(stream.sdkStream);
        if (this.#byKey.delete(stream.key)) held.count--;
      });
    }
    return event.seq;
  }

  /** The stream an event id names, if it is this session's and the store still holds it. */
  async #owned(eventId: string): Promise<SessionStream | undefined> {
    const parsed = parseEventId(eventId);
    const stream = parsed === undefined ? undefined : this.#byKey.get(parsed.stream);
    if (stream === undefined) return undefined;
    let owner: string | undefined;
    await this.#guard("owner", async () => void (owner = await this.#settings.store.owner(stream.key)));
    return owner === this.#owner ? stream : undefined;
  }

  /** Runs one call to the store; a failure is reported, and the live stream goes on without it. */
  async #guard(what: string, call: () => void | Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.#settings.report(`rcp-gen mcp: the event store failed to ${what} (${String(error)})`);
    }
  }
}

/** Resolves after the microtasks queued now have run. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
