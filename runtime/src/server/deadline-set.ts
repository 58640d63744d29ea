/**
 * Requests waiting under one fixed deadline duration (the server's default, §13.1) share one
 * timer instead of one each: a timer per request cost about 0.4 µs to set and clear, most of
 * what a small async request costs otherwise. All entries have the same duration, so insertion
 * order is expiry order and the first entry is always the next to expire.
 *
 * When the set empties, the timer is kept but no longer holds the process open (unref): a
 * server answering one request at a time would otherwise set and clear a timer for each. An
 * entry added later expires after the timer's time, so the timer fires early at worst and is
 * set again for the first entry still waiting, or dropped if none is.
 */

export interface Expiring {
  /** performance.now() at which it expires: durationMs after it was added. */
  readonly expiresAt: number;
  /** Called once, when its time is up and it was not deleted before. */
  expire(): void;
}

export class DeadlineSet<T extends Expiring> {
  readonly #waiting = new Set<T>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly durationMs: number) {}

  /** The expiry time for an entry added now. */
  expiryFromNow(): number {
    return performance.now() + this.durationMs;
  }

  add(entry: T): void {
    this.#waiting.add(entry);
    if (this.#timer === undefined) this.#arm(entry.expiresAt);
    else if (this.#waiting.size === 1 && canUnref(this.#timer)) this.#timer.ref();
  }

  delete(entry: T): void {
    if (!this.#waiting.delete(entry) || this.#waiting.size > 0 || this.#timer === undefined) return;
    if (canUnref(this.#timer)) return void this.#timer.unref();
    // A host whose timers cannot be unref'd (a browser, a worker) keeps none past its requests.
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(expiresAt: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, expiresAt - performance.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (const entry of this.#waiting) {
      if (entry.expiresAt > now) return this.#arm(entry.expiresAt);
      this.#waiting.delete(entry);
      entry.expire();
    }
  }
}

/** Node's timers can stop holding the process open; other hosts' timer ids are numbers. */
function canUnref(timer: unknown): timer is { ref(): unknown; unref(): unknown } {
  return typeof timer === "object" && timer !== null && typeof (timer as { unref?: unknown }).unref === "function";
}
