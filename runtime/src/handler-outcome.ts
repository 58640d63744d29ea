/**
 * What a handler may return (a value, a promise, or a generator of progress events whose
 * return value is the result) and how a generator is drained. Reading `then` or `next` runs
 * user code too (a getter, a Proxy), so callers guard these checks.
 */
import type { ProgressEvent } from "./api.js";

export type ProgressGenerator = Generator<unknown, unknown, void> | AsyncGenerator<unknown, unknown, void>;

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

export function isGenerator(value: unknown): value is ProgressGenerator {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { next?: unknown }).next === "function" &&
    (Symbol.asyncIterator in value || Symbol.iterator in value)
  );
}

/**
 * Each yielded event goes to `progress`; the return value resolves the promise and a throw
 * rejects it. Once `stopped()` (the request was answered: cancel, deadline, disconnect) the
 * generator is returned so its finally blocks run, and the promise resolves with undefined.
 */
export async function drainGenerator(
  generator: ProgressGenerator,
  progress: (event: ProgressEvent) => void,
  stopped: () => boolean,
): Promise<unknown> {
  for (;;) {
    const step = await generator.next();
    if (stopped()) {
      await generator.return(undefined);
      return undefined;
    }
    if (step.done) return step.value;
    progress(step.value as ProgressEvent);
  }
}
