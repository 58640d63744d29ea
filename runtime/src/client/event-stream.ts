/**
 * Turns a call that reports progress through a callback into an async iterable of
 * StreamEvent: progress events as they arrive, then exactly one result. Leaving the
 * iteration early aborts the call, which cancels it on the wire.
 */
import type { ReceivedProgress, StreamEvent } from "../protocol/types.js";

/** Starts the call; `signal` aborts when the consumer stops iterating before the result. */
export type ProgressCall<Result, Partial> = (
  onProgress: (event: ReceivedProgress<Partial>) => void,
  signal: AbortSignal,
) => Promise<Result>;

type Outcome<Result> = { ok: true; result: Result } | { ok: false; error: unknown };

export async function* progressStream<Result, Partial>(
  start: ProgressCall<Result, Partial>,
): AsyncGenerator<StreamEvent<Result, Partial>, void, undefined> {
  const stopped = new AbortController();
  const queue: StreamEvent<Result, Partial>[] = [];
  let outcome: Outcome<Result> | undefined;
  let wake: (() => void) | undefined;
  const settle = (value: Outcome<Result>): void => {
    outcome = value;
    wake?.();
  };
  start((event) => {
    queue.push({ type: "progress", ...event });
    wake?.();
  }, stopped.signal).then(
    (result) => settle({ ok: true, result }),
    (error: unknown) => settle({ ok: false, error }),
  );
  try {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (outcome !== undefined) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (!outcome.ok) throw outcome.error;
    yield { type: "result", result: outcome.result };
  } finally {
    // A no-op once the call has settled; before that it cancels the call.
    stopped.abort(new Error("Stream closed before the result"));
  }
}
