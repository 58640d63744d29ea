/**
 * A streaming call's events folded into one growing value: what the `tanstack-query` target's
 * queries hold as their data while a call streams (each progress frame's partial appended),
 * and once it ends (the result set). A new object per event, as a UI store wants.
 */
import type { ReceivedProgress, StreamEvent } from "../protocol/types.js";

/** Everything a streaming call has delivered so far. */
export interface StreamedData<Result, Partial> {
  /** Each progress frame's partial, in arrival order. */
  readonly partials: readonly Partial[];
  /** The latest progress event (`progress`, `stage`, ...); undefined before the first. */
  readonly progress: ReceivedProgress<Partial> | undefined;
  /** The result, once it arrived. */
  readonly result: Result | undefined;
}

/** Nothing delivered yet. */
export function emptyStreamedData<Result, Partial>(): StreamedData<Result, Partial> {
  return { partials: [], progress: undefined, result: undefined };
}

/** `data` with one more event: a progress frame appends its partial, the result ends it. */
export function foldStreamEvent<Result, Partial>(
  data: StreamedData<Result, Partial>,
  event: StreamEvent<Result, Partial>,
): StreamedData<Result, Partial> {
  if (event.type === "result") return { ...data, result: event.result };
  const { type: _type, ...progress } = event;
  const partials = progress.partial === undefined ? data.partials : [...data.partials, progress.partial];
  return { partials, progress, result: data.result };
}
