/**
 * One in-flight request: settles exactly once, owns its timers and its link to the
 * caller's AbortSignal, and forwards progress and logs to the caller's callbacks.
 * Why a call is given up (abort, timeout, a throwing callback, a refused frame) is reported to the client,
 * which decides the error and how to cancel on the wire.
 */
import type { LogMessage, ReceivedProgress, RequestId } from "../protocol/types.js";

export type AbandonReason =
  | { kind: "aborted"; reason: unknown }
  | { kind: "timeout"; afterMs: number }
  /** A callback threw, or a strict client refused a frame for this call. */
  | { kind: "failed"; error: unknown };

export interface PendingCallOptions {
  id: RequestId;
  method: string;
  progressToken: string | undefined;
  signal: AbortSignal | undefined;
  /** Milliseconds of silence allowed; restarted by progress when `resetTimeoutOnProgress`. */
  timeoutMs: number | undefined;
  resetTimeoutOnProgress: boolean;
  /** Hard bound from the start of the call, across resets. */
  maxTotalTimeoutMs: number | undefined;
  onProgress: ((event: ReceivedProgress) => void) | undefined;
  onLog: ((log: LogMessage) => void) | undefined;
  /** The call must be given up; it is still pending when this runs. */
  onAbandon: (call: PendingCall, reason: AbandonReason) => void;
  /** Runs once, after the call settled either way. */
  onSettled: (call: PendingCall) => void;
}

export class PendingCall {
  readonly id: RequestId;
  readonly method: string;
  readonly progressToken: string | undefined;
  /** Aborted when the call is given up, ending a request-scoped exchange (HTTP). */
  readonly exchange = new AbortController();
  readonly promise: Promise<unknown>;
  readonly #options: PendingCallOptions;
  #resolve!: (value: unknown) => void;
  #reject!: (error: unknown) => void;
  #settled = false;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #totalTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #onCallerAbort = (): void => {
    this.#options.onAbandon(this, { kind: "aborted", reason: this.#options.signal?.reason });
  };

  constructor(options: PendingCallOptions) {
    this.#options = options;
    this.id = options.id;
    this.method = options.method;
    this.progressToken = options.progressToken;
    this.promise = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /**
   * Starts the call's clocks and its link to the caller's signal. The client calls it once the
   * request has left: a listener and a timer cost tens of µs in a process that has just woken,
   * and a federator's slowest engine should not wait for them.
   */
  watch(): void {
    if (this.#settled) return;
    const options = this.#options;
    options.signal?.addEventListener("abort", this.#onCallerAbort, { once: true });
    this.#armIdleTimer();
    const total = options.maxTotalTimeoutMs;
    if (total !== undefined) {
      this.#totalTimer = setTimeout(() => options.onAbandon(this, { kind: "timeout", afterMs: total }), total);
    }
  }

  get settled(): boolean {
    return this.#settled;
  }

  /** Whether the server should stream notifications for this call: it carries a progressToken (§9). */
  get wantsStream(): boolean {
    return this.progressToken !== undefined;
  }

  resolve(result: unknown): void {
    if (this.#finish()) this.#resolve(result);
  }

  reject(error: unknown): void {
    if (this.#finish()) this.#reject(error);
  }

  progress(event: ReceivedProgress): void {
    if (this.#settled) return;
    if (this.#options.resetTimeoutOnProgress) this.#armIdleTimer();
    this.#deliver(this.#options.onProgress, event);
  }

  log(message: LogMessage): void {
    if (!this.#settled) this.#deliver(this.#options.onLog, message);
  }

  /** Gives the call up with `error`; the client rejects it and cancels it on the wire. */
  fail(error: unknown): void {
    if (!this.#settled) this.#options.onAbandon(this, { kind: "failed", error });
  }

  #deliver<T>(callback: ((value: T) => void) | undefined, value: T): void {
    try {
      callback?.(value);
    } catch (error) {
      this.fail(error);
    }
  }

  #armIdleTimer(): void {
    const timeout = this.#options.timeoutMs;
    if (timeout === undefined) return;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => this.#options.onAbandon(this, { kind: "timeout", afterMs: timeout }), timeout);
  }

  /** True the first time only; clears everything the call holds. */
  #finish(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#idleTimer);
    clearTimeout(this.#totalTimer);
    this.#options.signal?.removeEventListener("abort", this.#onCallerAbort);
    this.#options.onSettled(this);
    return true;
  }
}
