/**
 * What a handler may return (a value, a promise, or a generator of progress events whose
 * return value is the result) and how each is settled. Reading `then` or `next` runs user
 * code too (a getter, a Proxy), so callers guard these checks.
 */
import type { ProgressEvent } from "../protocol/types.js";

type ProgressGenerator = Generator<unknown, unknown, void> | AsyncGenerator<unknown, unknown, void>;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function isGenerator(value: unknown): value is ProgressGenerator {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { next?: unknown }).next === "function" &&
    (Symbol.asyncIterator in value || Symbol.iterator in value)
  );
}

/** Where a generator's progress goes, and whether its request was answered already. */
export interface ProgressSink {
  progress(event: ProgressEvent): void;
  /** True once the request was answered (cancel, deadline, disconnect). */
  readonly done: boolean;
}

/**
 * The one dispatch of a handler's outcome, for the core and the interceptor chain alike: a
 * plain value comes back as it is; a promise (any thenable) comes back as a Promise, and so
 * does a generator, drained into `sink`. A Promise therefore always means "answered later",
 * anything else "answered now". Throws what reading `then` or `next` throws.
 */
export function settleOutcome(outcome: unknown, sink: ProgressSink): unknown {
  // Promise.resolve turns a thenable whose then() throws into a rejection instead of a crash.
  if (isThenable(outcome)) return Promise.resolve(outcome);
  if (isGenerator(outcome)) return drainGenerator(outcome, sink);
  return outcome;
}

/**
 * Each yielded event goes to the sink; the return value resolves the promise and a throw
 * rejects it. Once the sink is done (the request was answered) the generator is returned so
 * its finally blocks run, and the promise resolves with undefined.
 */
async function drainGenerator(generator: ProgressGenerator, sink: ProgressSink): Promise<unknown> {
  for (;;) {
    const step = await generator.next();
    if (sink.done) {
      await generator.return(undefined);
      return undefined;
    }
    if (step.done) return step.value;
    sink.progress(step.value as ProgressEvent);
  }
}
