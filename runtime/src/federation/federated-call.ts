/**
 * One federated call in flight: every engine asked concurrently with its share of the
 * deadline and this hop's budget and path in `_meta` (§16.2), its answer checked against the
 * method's result schema (results are untrusted, §15.1), its outcome reported as it happens.
 */
import type { CallOptions, JsonObject, ProgressEvent } from "../protocol/types.js";
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { getPath } from "../protocol/dotted-paths.js";
import { checkParams, validationError } from "../server/params.js";
import type { MethodDescriptor } from "../protocol/descriptor.js";
import type { Deadline, HopMeta } from "./budget.js";
import type { EngineClient, EngineHandle } from "./engine-handle.js";
import { asRcpError, within } from "./errors.js";
import { TransportError } from "../client/transport.js";
import { mergeAnswers, type EngineAnswer } from "./merge.js";
import { ProgressSummary, type FederationPartial } from "./progress.js";
import type { FederableResult } from "./types.js";

/** What became of one engine in one federated call. */
export type EngineOutcome =
  | { readonly id: string; readonly status: "answered"; readonly hits: number; readonly latencyMs: number }
  | {
      readonly id: string;
      /**
       * failed: an error, or no connection; timeout: its share of the deadline ran out; skipped:
       * its capabilities rule the request out (-32005, -32602); unsupported: it does not offer
       * the method at all, which is not an error (§16.2).
       */
      readonly status: "failed" | "timeout" | "skipped" | "unsupported";
      readonly error: RcpError;
      readonly latencyMs: number;
    };

/** Options of one federated call: the client's call options plus a report per engine. */
export interface FederatedCallOptions<Partial = FederationPartial> {
  /** Aborting cancels every engine's call; the federated call then rejects with -32006. */
  signal?: AbortSignal;
  /** Milliseconds for the whole call; `_meta.deadlineMs` in params may only shorten it. */
  timeout?: number;
  /** The federator's progress: engines' stages, then each engine's answer with the hits fused so far. */
  onProgress?: (event: ProgressEvent<Partial>) => void;
  /** Each engine's outcome, as it happens. */
  onEngine?: (outcome: EngineOutcome) => void;
}

/** `_meta` keys that belong to one hop only: the client and the budget arithmetic set them anew. */
const HOP_LOCAL_META = new Set(["progressToken", "logLevel", "deadlineMs", "federation", "session", "degraded"]);

/** An engine not asked at all, the caller's deadline leaving it no time: one instance, so it can be told apart. */
export const NO_TIME_LEFT = new RcpError(ErrorCode.Timeout, "Timeout: no time was left for it");

/** Why engine calls still running when the federated call ends are cancelled; one instance, no stack per call. */
const CALL_OVER = new RcpError(ErrorCode.Cancelled, "Cancelled: the federated call is over");

type MethodCall = (method: string, params: JsonObject, options: CallOptions) => Promise<unknown>;

export interface FederatedCallInit {
  readonly descriptor: MethodDescriptor;
  readonly request: JsonObject;
  /** The request's own `_meta`. */
  readonly received: JsonObject;
  readonly hop: HopMeta;
  readonly deadline: Deadline;
  readonly options: FederatedCallOptions;
  /** Whether engine failures may say where the engine is (its URL, its command). */
  readonly exposeEndpoints: boolean;
}

export class FederatedCall<C extends EngineClient> {
  readonly #init: FederatedCallInit;
  readonly #engines: readonly EngineHandle<C>[];
  /** What every engine call listens to: the caller's signal, or this call's own controller's. */
  readonly #signal: AbortSignal | undefined;
  readonly #progress: ProgressSummary | undefined;
  /** Only when this call can end before every engine has answered (see the constructor). */
  readonly #stop: AbortController | undefined;
  readonly #answers = new Map<string, EngineAnswer>();
  /** Engines still being asked: only they have anything to cancel. */
  #asking = 0;
  #stopped = false;
  #unlink = (): void => {};

  constructor(engines: readonly EngineHandle<C>[], init: FederatedCallInit) {
    this.#init = init;
    this.#engines = engines;
    const { signal, onProgress, onEngine } = init.options;
    // The call ends before every engine has answered only when a required engine fails or a
    // callback throws; the engines still running are then cancelled through a controller of
    // this call's own. Otherwise the caller's signal alone can cut it short, and the engine
    // calls listen to it directly: an AbortSignal and its listener cost tens of µs per call
    // in a process that has just woken.
    const endsEarly = onProgress !== undefined || onEngine !== undefined || engines.some((h) => h.entry.required);
    if (!endsEarly) {
      this.#stop = undefined;
      this.#signal = signal;
    } else {
      const stop = new AbortController();
      if (signal?.aborted) stop.abort(signal.reason);
      else if (signal !== undefined) {
        const forward = () => stop.abort(signal.reason);
        signal.addEventListener("abort", forward, { once: true });
        this.#unlink = () => signal.removeEventListener("abort", forward);
      }
      this.#stop = stop;
      this.#signal = stop.signal;
    }
    const ids = engines.map((handle) => handle.id);
    this.#progress = onProgress === undefined ? undefined : new ProgressSummary(ids, onProgress);
  }

  /**
   * Every engine's outcome, in priority order; rejects with a required engine's own error as
   * soon as one fails (§16.2), after which stop() cancels the others.
   *
   * The engines are asked slowest first (by their recent latency). Requests leave one socket
   * or pipe write at a time, and each write wakes an engine that may take the CPU before the
   * next write; the slowest engine decides when the fan-out ends, so it should not wait for
   * the others' requests to go out. Nor for them to be built: node:http writes a request on
   * the next tick, after every call started in this turn, so once the slowest is known the
   * others are asked when the event loop has come round (setImmediate, where the host has it).
   */
  run(): Promise<EngineOutcome[]> {
    let failRequired: (error: RcpError) => void = () => {};
    const requiredFailed =
      this.#stop === undefined ? undefined : new Promise<never>((_, reject) => (failRequired = reject));
    const [slowest, ...others] = slowestFirst(this.#engines);
    const tasks: Promise<EngineOutcome>[] = [];
    const ask = (index: number) => {
      tasks[index] = this.#settle(this.#engines[index]!, failRequired);
    };
    if (slowest !== undefined) ask(slowest);
    // Before any latency is known the order is the registry's: all are asked at once, so that
    // none bears a first call's costs (connecting, warming up) alone in its first measure.
    const known = slowest !== undefined && this.#engines[slowest]!.expectedLatencyMs !== undefined;
    if (!known) for (const index of others) ask(index);
    const everyOutcome =
      !known || others.length === 0
        ? Promise.all(tasks)
        : afterPendingWrites().then(() => {
            // Ended meanwhile (a required engine failed): the others are not asked at all.
            if (!this.#stopped) for (const index of others) ask(index);
            return Promise.all(tasks);
          });
    return requiredFailed === undefined ? everyOutcome : Promise.race([everyOutcome, requiredFailed]);
  }

  /** One engine asked, its outcome reported; a required engine's failure fails the whole call. */
  async #settle(handle: EngineHandle<C>, failRequired: (error: RcpError) => void): Promise<EngineOutcome> {
    this.#asking += 1;
    const outcome = await this.#ask(handle);
    this.#asking -= 1;
    this.#init.options.onEngine?.(outcome);
    this.#progress?.engineDone(handle.id, summary(outcome), () => this.#fusedSoFar());
    if (handle.entry.required && outcome.status !== "answered" && outcome.status !== "unsupported") {
      const { code, message, data } = outcome.error;
      failRequired(new RcpError(code, `${message} (required engine ${handle.id})`, { ...data, engine: handle.id }));
    }
    return outcome;
  }

  /** The answers so far, in the engines' priority order. */
  answers(): EngineAnswer[] {
    return this.#engines.flatMap((handle) => this.#answers.get(handle.id) ?? []);
  }

  /**
   * Cancels whatever is still running. Once every engine has answered there is nothing to cancel,
   * and aborting (an event dispatched through every listener) would cost the answer tens of µs.
   */
  stop(): void {
    this.#stopped = true;
    this.#unlink();
    if (this.#asking > 0) this.#stop?.abort(CALL_OVER);
  }

  /** Never throws: every way an engine can go wrong is an outcome. */
  async #ask(handle: EngineHandle<C>): Promise<EngineOutcome> {
    const started = performance.now();
    const { descriptor, request, deadline } = this.#init;
    const outcome = (status: "failed" | "timeout" | "skipped" | "unsupported", error: RcpError): EngineOutcome => ({
      id: handle.id,
      status,
      error,
      latencyMs: Math.round(performance.now() - started),
    });
    if (deadline.forEngine() <= 0) return outcome("timeout", NO_TIME_LEFT);
    let client: C | undefined;
    try {
      client =
        handle.client ??
        (await within(handle.connect(), deadline.forEngine(), this.#signal, `connecting to ${handle.id}`));
      const capability = descriptor.capability;
      if (capability !== null && !client.supports(capability)) {
        return outcome("unsupported", new RcpError(ErrorCode.CapabilityMissing, `does not advertise ${capability}`));
      }
      try {
        // The engine's own checks, run here first: an option it lacks skips it without I/O. The
        // request matched the schema when the federated call began.
        checkParams(descriptor, request, client.serverCapabilities ?? {});
      } catch (thrown) {
        return outcome("skipped", asRcpError(thrown));
      }
      const remaining = deadline.forEngine();
      if (remaining <= 0) return outcome("timeout", NO_TIME_LEFT);
      let result: unknown;
      try {
        const forwarded: JsonObject = Object.assign({}, request);
        forwarded._meta = this.#forwardedMeta(remaining);
        result = await (client as unknown as { call: MethodCall }).call(descriptor.method, forwarded, {
          signal: this.#signal,
          timeout: remaining,
          ...this.#progressOption(handle.id, client),
        });
      } finally {
        // A call cut short by this federated call's end says nothing about the engine's speed.
        if (this.#signal?.aborted !== true) handle.observeLatency(performance.now() - started);
      }
      if (!descriptor.result(result)) {
        const { detail } = validationError(descriptor.result, "result").data ?? {};
        return outcome(
          "failed",
          new RcpError(ErrorCode.InternalError, `Malformed ${descriptor.method} result`, { detail }),
        );
      }
      const answer = result as FederableResult;
      const floor = getPath(client.serverCapabilities, "retrieve.scoreFloor");
      this.#answers.set(handle.id, {
        id: handle.id,
        weight: handle.entry.weight,
        result: answer,
        ...(typeof floor === "number" ? { scoreFloor: floor } : {}),
      });
      handle.answered();
      return {
        id: handle.id,
        status: "answered",
        hits: answer.hits.length,
        latencyMs: Math.round(performance.now() - started),
      };
    } catch (thrown) {
      if (thrown instanceof TransportError && client !== undefined) handle.lost(client);
      const error = asRcpError(thrown, this.#init.exposeEndpoints);
      return outcome(error.code === ErrorCode.Timeout ? "timeout" : "failed", error);
    }
  }

  /** Progress is asked of an engine only when someone listens and the engine streams (§9). */
  #progressOption(id: string, client: C): Pick<CallOptions, "onProgress"> {
    const progress = this.#progress;
    if (progress === undefined || !client.supports("streaming")) return {};
    return { onProgress: (event: ProgressEvent) => progress.engineProgress(id, event) };
  }

  /** The `_meta` an engine receives: this hop's budget and path, and the received keys that travel on. */
  #forwardedMeta(deadlineMs: number): JsonObject {
    const meta: JsonObject = {};
    for (const [key, value] of Object.entries(this.#init.received)) if (!HOP_LOCAL_META.has(key)) meta[key] = value;
    meta.deadlineMs = deadlineMs;
    meta.federation = { depth: this.#init.hop.depth, path: this.#init.hop.path };
    return meta;
  }

  #fusedSoFar(): EngineAnswer["result"]["hits"] {
    const k = this.#init.request.k;
    return mergeAnswers(this.answers(), { method: "rrf" }, typeof k === "number" ? k : undefined).hits;
  }
}

/** Resolves once the writes queued in this turn have gone out: on the next turn of the event loop where the host has setImmediate (Node, Bun, Deno), else at once. */
function afterPendingWrites(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return immediate === undefined ? Promise.resolve() : new Promise((resolve) => immediate(resolve));
}

/**
 * Indices of `engines`, the slowest expected first; engines not measured yet come first too
 * (they may be the slowest), and equals keep their priority order.
 */
function slowestFirst(engines: readonly EngineHandle<EngineClient>[]): number[] {
  const expected = (index: number) => engines[index]!.expectedLatencyMs ?? Number.POSITIVE_INFINITY;
  return engines.map((_, index) => index).sort((a, b) => expected(b) - expected(a) || a - b);
}

/** One line about an engine that did not answer, for `usage.notes` and progress messages. */
export function describeOutcome(outcome: Exclude<EngineOutcome, { status: "answered" }>): string {
  const { code, message } = outcome.error;
  const what = { failed: "failed", timeout: "timed out", skipped: "skipped", unsupported: "not asked" }[outcome.status];
  return `${what} after ${outcome.latencyMs} ms (${code} ${message})`;
}

function summary(outcome: EngineOutcome): string {
  return outcome.status === "answered" ? `answered ${outcome.hits} hits` : describeOutcome(outcome);
}
