/**
 * Frames on their way to a reader that may fall behind (a stdio pipe, an SSE stream). While
 * the reader keeps up, each frame is written at once. Once the sink says it is behind, frames
 * wait here in order, and memory stays bounded: responses and errors are never dropped (at
 * most one per request in flight), while the notifications of one request are advisory (§9,
 * §17.1) and at most NOTIFICATIONS_KEPT_PER_REQUEST of them wait. Past that, a progress frame
 * replaces that request's newest waiting progress frame (the latest progress wins, and order
 * is kept) and any other notification is dropped. What was coalesced or dropped is reported
 * once per request, when it is answered. Web APIs only: it serves `server.fetch` too.
 */
import type { RequestId } from "../protocol/types.js";

/** Notifications of one request that may wait for a slow reader. */
export const NOTIFICATIONS_KEPT_PER_REQUEST = 32;

export interface FrameSink {
  /** Writes text; false when the reader is behind (the text was still taken). */
  write(text: string): boolean;
  /** Calls `listener` once, when the reader has caught up after a write returned false. */
  onDrain(listener: () => void): void;
}

/** The request a notification belongs to. */
export interface NotificationOwner {
  readonly method: string;
  readonly id: RequestId;
}

export interface OutboundQueueOptions {
  /** Hears when the reader falls behind (true) and when everything waiting has been written (false). */
  onCongestion?: (congested: boolean) => void;
  /** One line per request that had notifications coalesced or dropped. */
  report?: (line: string) => void;
}

interface Waiting {
  text: string;
  backlog?: Backlog;
}

/** A request's notifications while the reader is behind, and what was given up of them. */
interface Backlog {
  waiting: number;
  /** Its newest waiting progress frame, which a newer one replaces when the backlog is full. */
  newestProgress: Waiting | undefined;
  coalesced: number;
  dropped: number;
}

export class OutboundQueue {
  readonly #sink: FrameSink;
  readonly #options: OutboundQueueOptions;
  #waiting: Array<Waiting | undefined> = [];
  #next = 0;
  #congested = false;
  #abandoned = false;
  readonly #backlogs = new Map<NotificationOwner, Backlog>();
  #idle: Array<() => void> = [];

  constructor(sink: FrameSink, options: OutboundQueueOptions = {}) {
    this.#sink = sink;
    this.#options = options;
  }

  /** Whether frames are waiting for the reader. */
  get congested(): boolean {
    return this.#congested;
  }

  /** A response or error frame: written in its turn, never dropped. */
  response(text: string): void {
    if (this.#congested) this.#waiting.push({ text });
    else this.#write(text);
  }

  /** A notification of `owner`, still in flight: progress may be coalesced, others dropped, while the reader is behind. */
  notification(owner: NotificationOwner, text: string, progress: boolean): void {
    if (!this.#congested) return this.#write(text);
    let backlog = this.#backlogs.get(owner);
    if (backlog === undefined) {
      backlog = { waiting: 0, newestProgress: undefined, coalesced: 0, dropped: 0 };
      this.#backlogs.set(owner, backlog);
    }
    if (backlog.waiting < NOTIFICATIONS_KEPT_PER_REQUEST) {
      const waiting: Waiting = { text, backlog };
      if (progress) backlog.newestProgress = waiting;
      backlog.waiting++;
      this.#waiting.push(waiting);
    } else if (progress && backlog.newestProgress !== undefined) {
      backlog.newestProgress.text = text;
      backlog.coalesced++;
    } else backlog.dropped++;
  }

  /** Text worth sending only to a reader that keeps up (an SSE keep-alive comment). */
  whenIdle(text: string): void {
    if (!this.#congested) this.#write(text);
  }

  /** `owner` was answered: it sends nothing more, so what it lost is final. */
  requestDone(owner: NotificationOwner): void {
    const backlog = this.#backlogs.get(owner);
    if (backlog === undefined) return;
    this.#backlogs.delete(owner);
    if (backlog.coalesced + backlog.dropped === 0) return;
    this.#options.report?.(
      `rcp: ${owner.method} (id ${JSON.stringify(owner.id)}): the reader fell behind; ` +
        `${backlog.coalesced} progress frames coalesced, ${backlog.dropped} notifications dropped`,
    );
  }

  /** Resolves once nothing is waiting (at once when the reader keeps up). */
  idle(): Promise<void> {
    if (!this.#congested) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** The reader is gone: drop everything waiting and write nothing more. */
  abandon(): void {
    this.#abandoned = true;
    this.#waiting = [];
    this.#next = 0;
    this.#settle();
  }

  #write(text: string): void {
    if (this.#abandoned || this.#sink.write(text)) return;
    this.#congested = true;
    this.#options.onCongestion?.(true);
    this.#sink.onDrain(() => this.#flush());
  }

  #flush(): void {
    while (!this.#abandoned && this.#next < this.#waiting.length) {
      const waiting = this.#waiting[this.#next]!;
      this.#waiting[this.#next++] = undefined;
      const backlog = waiting.backlog;
      if (backlog !== undefined) {
        backlog.waiting--;
        if (backlog.newestProgress === waiting) backlog.newestProgress = undefined;
      }
      if (!this.#sink.write(waiting.text)) {
        this.#compact();
        this.#sink.onDrain(() => this.#flush());
        return;
      }
    }
    this.#waiting = [];
    this.#next = 0;
    this.#settle();
  }

  /** Frees the slots already written, so a long congestion does not keep them. */
  #compact(): void {
    if (this.#next < 1024 || this.#next * 2 < this.#waiting.length) return;
    this.#waiting = this.#waiting.slice(this.#next);
    this.#next = 0;
  }

  #settle(): void {
    if (!this.#congested) return;
    this.#congested = false;
    this.#options.onCongestion?.(false);
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}
