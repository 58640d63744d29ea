/**
 * A response body as the raw exchange hands it out: chunks queue here as the socket delivers
 * them and a ChunkReader takes them one by one. Past a high-water mark the source is paused
 * until the reader catches up, so a long SSE stream read slowly never piles up in memory.
 */
import type { ChunkReader } from "../framing/bounded-body.js";

const HIGH_WATER_BYTES = 64 * 1024;

type Result = ReadableStreamReadResult<Uint8Array>;

export interface BodySource {
  pause(): void;
  resume(): void;
  /** The reader gave up before the end: drop the rest. */
  cancel(): void;
}

const DONE: Result = Object.freeze({ done: true, value: undefined });

export class BodyQueue implements ChunkReader {
  readonly #chunks: Uint8Array[] = [];
  #queuedBytes = 0;
  #ended = false;
  #error: unknown;
  #failed = false;
  #paused = false;
  /** Reads waiting for a chunk, oldest first (a reader may ask again before an answer). */
  readonly #waiting: Array<{ resolve(result: Result): void; reject(error: unknown): void }> = [];
  readonly #source: BodySource;

  constructor(source: BodySource) {
    this.#source = source;
  }

  /** True once every byte arrived or the body failed: the source owes nothing more. */
  get settled(): boolean {
    return this.#ended || this.#failed;
  }

  push(chunk: Uint8Array): void {
    if (this.settled) return;
    const waiting = this.#waiting.shift();
    if (waiting !== undefined) return waiting.resolve({ done: false, value: chunk });
    this.#chunks.push(chunk);
    this.#queuedBytes += chunk.byteLength;
    if (!this.#paused && this.#queuedBytes > HIGH_WATER_BYTES) {
      this.#paused = true;
      this.#source.pause();
    }
  }

  end(): void {
    if (this.settled) return;
    this.#ended = true;
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(DONE);
  }

  /** The body cannot be finished: what is queued is dropped and reads reject with `error`. */
  fail(error: unknown): void {
    if (this.settled) return;
    this.#failed = true;
    this.#error = error;
    this.#chunks.length = 0;
    for (const waiting of this.#waiting.splice(0)) waiting.reject(error);
  }

  read(): Promise<Result> {
    const chunk = this.#chunks.shift();
    if (chunk !== undefined) {
      this.#queuedBytes -= chunk.byteLength;
      if (this.#paused && this.#queuedBytes <= HIGH_WATER_BYTES / 2) {
        this.#paused = false;
        this.#source.resume();
      }
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#failed) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve(DONE);
    return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
  }

  async cancel(): Promise<void> {
    this.#chunks.length = 0;
    this.#queuedBytes = 0;
    if (this.settled) return;
    this.#ended = true;
    this.#source.cancel();
    for (const waiting of this.#waiting.splice(0)) waiting.resolve(DONE);
  }
}
