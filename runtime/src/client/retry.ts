/**
 * The opt-in retry policy of §12.2 (BaseClientOptions.retry), as the innermost client
 * interceptor: a failed call is sent again, with a new id, when all of these hold. The schema
 * marks the method safe to repeat for these params (`x-rcp.idempotent`, §7.10); the error says
 * an identical retry may succeed (`error.data.retryable`, else the code's §12.2 verdict "yes",
 * or a transport failure of this call alone while the client is still connected); attempts are
 * left; and the backoff (full jitter, exponential, at least `retryAfterMs`) ends before the
 * call's deadline. An abort during the backoff ends the call with -32006.
 */
import type { CallNext, ClientCall, JsonObject } from "../protocol/types.js";
import type { Idempotence } from "../protocol/descriptor.js";
import { ErrorCode } from "../protocol/errors.js";
import { getPath } from "../protocol/dotted-paths.js";
import { CallError } from "./call-error.js";
import { TransportError } from "./transport.js";

/** The client's `retry` option: how often and how long to retry idempotent calls whose error may pass (§12.2). */
export interface RetryPolicy {
  /** Attempts in all, the first one included. Default 3. */
  maxAttempts?: number;
  /** Upper bound of the first backoff in ms; each later one doubles, up to `maxDelayMs`. Default 100. */
  initialDelayMs?: number;
  /** Upper bound of any backoff in ms (a server's `retryAfterMs` may ask for longer). Default 5000. */
  maxDelayMs?: number;
  /** Hears each retry before its backoff: which call, which attempt comes next, after how long, and why. */
  onRetry?: (retry: { method: string; attempt: number; delayMs: number; error: unknown }) => void;
}

/** What the retry step needs of its client. */
export interface RetryHost {
  /** The client's `defaultTimeout`. */
  readonly defaultTimeout: number | undefined;
  /** False once the client is closed or its connection died: nothing can succeed then. */
  connected(): boolean;
  /** The error of a call its caller aborted (-32006). */
  cancelled(reason: unknown): Error;
}

const DEFAULTS = { maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 5000 };

export function retryStep(policy: RetryPolicy, host: RetryHost, next: CallNext<ClientCall>): CallNext<ClientCall> {
  const { maxAttempts, initialDelayMs, maxDelayMs } = { ...DEFAULTS, ...policy };
  return async (call) => {
    if (!repeatable(call.descriptor?.idempotent, { ...(call.params as JsonObject), _meta: call.meta })) {
      return next(call);
    }
    const started = Date.now();
    const deadline = started + budgetMs(call, host.defaultTimeout);
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(attempt === 1 ? call : withinDeadline(call, deadline - Date.now()));
      } catch (error) {
        if (attempt >= maxAttempts || !mayRetry(error, host)) throw error;
        const backoff = Math.random() * Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.round(Math.max(backoff, retryAfterMs(error)));
        // A retry that could not start before the deadline would only fail later, and slower.
        if (Date.now() + delayMs >= deadline) throw error;
        policy.onRetry?.({ method: call.method, attempt: attempt + 1, delayMs, error });
        await pause(delayMs, call.signal, host);
      }
    }
  };
}

/** Whether the schema lets these params be sent again: `true`, or one of its conditions holds. */
export function repeatable(idempotent: Idempotence | undefined, params: JsonObject): boolean {
  if (idempotent === undefined) return false;
  if (idempotent === true) return true;
  return idempotent.when.some(({ each, present }) => {
    if (each === undefined) return isPresent(getPath(params, present));
    const items = getPath(params, each);
    return Array.isArray(items) && items.every((item) => isPresent(getPath(item, present)));
  });
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function mayRetry(error: unknown, host: RetryHost): boolean {
  if (!host.connected()) return false;
  // A request that never got an answer (HTTP connection refused or reset); an unmapped status did
  // get one. A lost connection (a stdio pipe) fails every call until the client notices it closed.
  if (error instanceof TransportError) return error.status === undefined && !error.connectionLost;
  if (!(error instanceof CallError)) return false;
  const said = error.data?.retryable;
  if (typeof said === "boolean") return said;
  // -32001 is "yes, after fixing": it needs a new initialize, not the same request again.
  return error.retryable === "yes" && error.code !== ErrorCode.NotInitialized;
}

function retryAfterMs(error: unknown): number {
  const hint = error instanceof CallError ? error.data?.retryAfterMs : undefined;
  return typeof hint === "number" && Number.isFinite(hint) && hint > 0 ? hint : 0;
}

/**
 * Milliseconds the whole call may take: `maxTotalTimeout`, a `timeout` that progress does not
 * restart (the client's default too), and the server deadline `_meta.deadlineMs` all bound it.
 */
function budgetMs(call: ClientCall, defaultTimeout: number | undefined): number {
  const { timeout = defaultTimeout, maxTotalTimeout, resetTimeoutOnProgress } = call.options;
  const deadlineMs = call.meta.deadlineMs;
  return Math.min(
    maxTotalTimeout ?? Infinity,
    resetTimeoutOnProgress === true ? Infinity : (timeout ?? Infinity),
    typeof deadlineMs === "number" ? deadlineMs : Infinity,
  );
}

/** The call again, its bounds shrunk to what is left of its deadline. */
function withinDeadline(call: ClientCall, remainingMs: number): ClientCall {
  if (remainingMs === Infinity) return call;
  const left = Math.max(1, Math.floor(remainingMs));
  const options = { ...call.options, maxTotalTimeout: left };
  if (!options.resetTimeoutOnProgress) options.timeout = left;
  const meta = typeof call.meta.deadlineMs === "number" ? { ...call.meta, deadlineMs: left } : call.meta;
  return { ...call, options, meta };
}

function pause(delayMs: number, signal: AbortSignal | undefined, host: RetryHost): Promise<void> {
  if (signal?.aborted) return Promise.reject(host.cancelled(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(host.cancelled(signal!.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
