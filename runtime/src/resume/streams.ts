/**
 * The server side of resumable SSE streams (docs/resumable-streams.md): each frame of an opted-in
 * request is numbered and appended to this process's memory (and to the shared store, when one
 * is configured) before any connection reads it; every connection, the first and each
 * reconnect, is a reader of those frames. A handler whose readers have all gone keeps running
 * for the grace period, then is abandoned as a closed stream always was; an explicit cancel
 * aborts it at once.
 */
import type { HttpExchange } from "../http/exchange.js";
import { SSE_KEEP_ALIVE } from "../framing/sse.js";
import { RESUMABLE_DEFAULTS, storeLimits, type ResumableOptions } from "./wire.js";
import { Countdown } from "./countdown.js";
import { MemoryEventStore, type EventStore, type EventStoreLimits, type StoredEvent } from "./event-store.js";

/** What a stream's handler answers to: its readers having gone for good, and an explicit cancel. */
export interface StreamHandlerControl {
  abandon(): void;
  cancel(): void;
}

/** The producer of one stream: the request's handler appends its frames through it. */
export interface StreamProducer {
  readonly stream: string;
  append(data: string, final: boolean): void;
}

/** An event id: the stream and the frame number, `<stream>:<seq>`; 0 names the priming event. */
export function parseEventId(id: string | undefined): { stream: string; seq: number } | undefined {
  const match = id === undefined ? null : /^([0-9a-f-]{36}):(\d{1,15})$/.exec(id.trim());
  return match === null ? undefined : { stream: match[1]!, seq: Number(match[2]) };
}

export class ResumableStreams {
  readonly graceMs: number;
  readonly retryMs: number;
  readonly limits: EventStoreLimits;
  readonly #local = new MemoryEventStore();
  readonly #shared: EventStore | undefined;
  readonly #maxPerCaller: number;
  readonly #maxStreams: number;
  readonly #report: (line: string) => void;
  /** Streams each caller holds here, by caller bucket. */
  readonly #perCaller = new Map<string, number>();
  /** The handlers running here, by stream. */
  readonly #running = new Map<
    string,
    { control: StreamHandlerControl; readers: number; grace?: ReturnType<typeof setTimeout> }
  >();
  /** The local readers of each stream: a newer reconnect supersedes an older connection. */
  readonly #readers = new Map<string, AbortController>();

  constructor(options: ResumableOptions, report: (line: string) => void) {
    this.#shared = options.store;
    this.graceMs = options.graceMs ?? RESUMABLE_DEFAULTS.graceMs;
    this.retryMs = options.retryMs ?? RESUMABLE_DEFAULTS.retryMs;
    this.limits = storeLimits(options);
    this.#maxPerCaller = options.maxStreamsPerCaller ?? RESUMABLE_DEFAULTS.maxStreamsPerCaller;
    this.#maxStreams = options.maxStreams ?? RESUMABLE_DEFAULTS.maxStreams;
    this.#report = report;
    const cancel = (stream: string): void => this.#running.get(stream)?.control.cancel();
    this.#local.onCancel(cancel);
    void this.#guard("subscribe", () => this.#shared?.onCancel(cancel));
  }

  /** Streams held in this process's memory. */
  get held(): number {
    return this.#local.size;
  }

  /**
   * Opens a stream for a request, or undefined past a bound (the request then streams without
   * resumption). `bucket` counts the caller's streams; `owner` is who may resume it.
   */
  start(owner: string, bucket: string, control: StreamHandlerControl): StreamProducer | undefined {
    const held = this.#perCaller.get(bucket) ?? 0;
    if (held >= this.#maxPerCaller || this.#local.size >= this.#maxStreams) return undefined;
    const stream = crypto.randomUUID();
    this.#perCaller.set(bucket, held + 1);
    this.#local.open(stream, owner, this.limits);
    this.#running.set(stream, { control, readers: 0 });
    const ttl: Countdown = new Countdown(this.limits.ttlMs, () =>
      this.#running.has(stream) ? ttl.restart() : this.#forget(bucket),
    );
    // Appends to the shared store go one after the other, in order, each in a later turn of the
    // event loop than the local readers' writes (they write in the microtasks the append wakes):
    // the client's write waits neither for the store's round trip nor for the work of sending to it.
    let shared = Promise.resolve(this.#guard("open", () => this.#shared?.open(stream, owner, this.limits)));
    let unshared: StoredEvent[] = [];
    const share = (): void => {
      const events = unshared;
      unshared = [];
      shared = shared.then(async () => {
        for (const event of events) await this.#guard("append", () => this.#shared!.append(stream, event, this.limits));
      });
    };
    let seq = 0;
    let ended = false;
    return {
      stream,
      append: (data, final) => {
        // Only one final response: a handler answering after it was abandoned is not heard.
        if (ended) return;
        ended = final;
        const event: StoredEvent = { seq: ++seq, data, final };
        this.#local.append(stream, event, this.limits);
        ttl.restart();
        if (this.#shared !== undefined) {
          if (unshared.length === 0) setTimeout(share, 0);
          unshared.push(event);
        }
        if (final) {
          const running = this.#running.get(stream);
          clearTimeout(running?.grace);
          this.#running.delete(stream);
        }
      },
    };
  }

  /** The stream's owner wherever it is kept, or undefined: unknown, expired, or the shared store cannot say. */
  async owner(stream: string): Promise<string | undefined> {
    const local = this.#local.owner(stream);
    if (local !== undefined || this.#shared === undefined) return local;
    try {
      return await this.#shared.owner(stream);
    } catch (error) {
      this.#report(`resumable streams: the event store cannot be reached (${String(error)})`);
      return undefined;
    }
  }

  /** An explicit cancel: the handler is aborted at once, here or on the replica that runs it. */
  async cancel(stream: string): Promise<void> {
    if (this.#running.has(stream)) return this.#local.cancel(stream);
    await this.#guard("cancel", () => this.#shared?.cancel(stream));
  }

  /**
   * Writes the stream's frames after `after` to `exchange` (a started event stream), then its
   * live tail, and ends it after the final response; the request's own connection is primed
   * first. Only the newest reader of a stream in this process is served; an older one is ended.
   */
  async serve(
    exchange: HttpExchange,
    stream: string,
    { after, keepAliveMs, priming = false }: { after: number; keepAliveMs: number; priming?: boolean },
  ): Promise<void> {
    const signal = this.#attach(exchange, stream);
    const running = this.#running.get(stream);
    const source = this.#local.has(stream) || this.#shared === undefined ? this.#local : this.#shared;
    // A reader on another replica keeps that replica's handler from being abandoned.
    const lease =
      running === undefined && source === this.#shared
        ? setInterval(
            () => void this.#guard("attach", () => this.#shared!.attach(stream, this.graceMs)),
            this.graceMs / 2,
          )
        : undefined;
    if (lease !== undefined) await this.#guard("attach", () => this.#shared!.attach(stream, this.graceMs));
    let silent = true;
    const keepAlive = setInterval(() => {
      if (silent) exchange.write(SSE_KEEP_ALIVE);
      silent = true;
    }, keepAliveMs);
    exchange.write(`retry: ${this.retryMs}\n\n`);
    // The first connection learns the stream's id before any frame: a cut then can still be resumed.
    if (priming) exchange.write(`id: ${stream}:0\ndata: \n\n`);
    const write = (event: StoredEvent): boolean => {
      silent = false;
      return exchange.write(`id: ${stream}:${event.seq}\ndata: ${event.data}\n\n`);
    };
    try {
      if (source === this.#local) await this.#follow(exchange, stream, after, signal, write);
      else
        for await (const event of source.read(stream, after, signal))
          if (!write(event)) await drained(exchange, signal);
    } catch (error) {
      this.#report(`resumable streams: reading stream ${stream} failed (${String(error)})`);
    } finally {
      clearInterval(keepAlive);
      clearInterval(lease);
      this.#detach(stream, signal);
      // A stream that ended without its final response (expired, superseded) is cut, so the client reconnects.
      exchange.end();
    }
  }

  /**
   * Serves a stream held here: the kept frames after `after`, then each new one written in its
   * append's own call, as a stream without resumption writes it (no turn of the event loop or
   * chain of promises between the handler's frame and the client), until the final response,
   * the stream's expiry or `signal`. A client that falls behind is caught up from the kept
   * frames once it has drained.
   */
  async #follow(
    exchange: HttpExchange,
    stream: string,
    after: number,
    signal: AbortSignal,
    write: (event: StoredEvent) => boolean,
  ): Promise<void> {
    let last = after;
    const written = (event: StoredEvent): "more" | "behind" | "done" => {
      last = event.seq;
      const caughtUp = write(event);
      return event.final ? "done" : caughtUp ? "more" : "behind";
    };
    while (!signal.aborted) {
      const kept = this.#local.since(stream, last);
      if (kept === undefined) return;
      let state: "more" | "behind" | "done" = "more";
      for (const event of kept) if ((state = written(event)) !== "more") break;
      if (state === "more")
        state = await new Promise((resolve) => {
          const stop = (outcome: "behind" | "done"): void => {
            unfollow();
            signal.removeEventListener("abort", aborted);
            resolve(outcome);
          };
          const aborted = (): void => stop("done");
          const unfollow = this.#local.follow(stream, {
            frame: (event) => {
              const outcome = written(event);
              if (outcome !== "more") stop(outcome);
            },
            gone: () => stop("done"),
          });
          signal.addEventListener("abort", aborted, { once: true });
        });
      if (state === "done") return;
      await drained(exchange, signal);
    }
  }

  #attach(exchange: HttpExchange, stream: string): AbortSignal {
    this.#readers.get(stream)?.abort();
    const controller = new AbortController();
    this.#readers.set(stream, controller);
    exchange.onAbort(() => controller.abort());
    const running = this.#running.get(stream);
    if (running !== undefined) {
      running.readers++;
      clearTimeout(running.grace);
    }
    return controller.signal;
  }

  #detach(stream: string, signal: AbortSignal): void {
    if (this.#readers.get(stream)?.signal === signal) this.#readers.delete(stream);
    const running = this.#running.get(stream);
    if (running === undefined) return;
    if (--running.readers === 0) this.#armGrace(stream);
  }

  /** No reader left: the handler runs on for the grace period, longer while a reader elsewhere holds a lease. */
  #armGrace(stream: string): void {
    const running = this.#running.get(stream);
    if (running === undefined) return;
    clearTimeout(running.grace);
    running.grace = setTimeout(() => {
      void (async () => {
        if (this.#running.get(stream) !== running || running.readers > 0) return;
        const elsewhere =
          this.#shared === undefined ? false : await this.#guard("attached", () => this.#shared!.attached(stream));
        if (this.#running.get(stream) !== running || running.readers > 0) return;
        if (elsewhere === true) return this.#armGrace(stream);
        this.#running.delete(stream);
        running.control.abandon();
      })();
    }, this.graceMs);
    (running.grace as { unref?(): unknown }).unref?.();
  }

  #forget(bucket: string): void {
    const held = (this.#perCaller.get(bucket) ?? 1) - 1;
    if (held <= 0) this.#perCaller.delete(bucket);
    else this.#perCaller.set(bucket, held);
  }

  /** Runs one call to the shared store; a failure is reported and read as "nothing". */
  async #guard<T>(what: string, call: () => T | Promise<T> | undefined): Promise<T | undefined> {
    try {
      return await call();
    } catch (error) {
      this.#report(`resumable streams: the event store failed to ${what} (${String(error)})`);
      return undefined;
    }
  }
}

/** Resolves when the client has caught up, or at once when it has gone. */
function drained(exchange: HttpExchange, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    exchange.onDrain(resolve);
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
