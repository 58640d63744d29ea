/**
 * The two budgets a federated request carries (§16.2): the hop budget and path that stop
 * loops, and the time left (`_meta.deadlineMs`, milliseconds remaining, never a clock), each
 * forwarded strictly smaller than received.
 */
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { isRecord } from "../protocol/dotted-paths.js";

/** §16.2: the RECOMMENDED default hop budget of an originating client. */
export const DEFAULT_HOP_BUDGET = 3;

/** `_meta.federation`: the hops left and the federators a request went through (§16.2). */
export interface HopMeta {
  depth: number;
  path: string[];
}

/**
 * The `_meta.federation` to forward, given the one received. An aggregator (`identity` set)
 * decrements the depth and appends itself, and refuses with -32010 when its identity is
 * already on the path (a cycle) or the depth is 0; a client (no identity) originates the
 * budget or passes a received one on unchanged.
 */
export function nextHop(received: unknown, identity: string | undefined, hopBudget: number): HopMeta {
  const depth = isRecord(received) && Number.isInteger(received.depth) ? (received.depth as number) : hopBudget;
  const path =
    isRecord(received) && Array.isArray(received.path)
      ? received.path.filter((hop): hop is string => typeof hop === "string")
      : [];
  if (identity === undefined) return { depth, path };
  if (path.includes(identity)) {
    throw new RcpError(
      ErrorCode.BackendUnavailable,
      `Backend unavailable: cycle: ${identity} is already in _meta.federation.path [${path.join(", ")}]; not forwarded (§16.2)`,
      { reason: "cycle", path },
    );
  }
  if (depth <= 0) {
    throw new RcpError(
      ErrorCode.BackendUnavailable,
      "Backend unavailable: hop budget exhausted (_meta.federation.depth 0); not forwarded (§16.2)",
      { reason: "hopBudget", path },
    );
  }
  return { depth: depth - 1, path: [...path, identity] };
}

/** A federated call's clock: the time it may take, and what it keeps for fusing and answering. */
export class Deadline {
  readonly #end: number;
  readonly #reserve: number;

  /** `budgetMs` from now; `reserveMs` (default 5% of it, within 5..100 ms) is kept back from engines. */
  constructor(budgetMs: number, reserveMs?: number) {
    this.#end = performance.now() + budgetMs;
    this.#reserve = reserveMs ?? Math.min(100, Math.max(5, budgetMs * 0.05));
  }

  /** Whole milliseconds an engine may still use: what is left minus the reserve, never negative. */
  forEngine(): number {
    return Math.max(0, Math.floor(this.#end - this.#reserve - performance.now()));
  }
}

/** The budget of one call: the smallest of the caller's timeout and the received deadline, else the default. */
export function budgetOf(timeout: number | undefined, receivedDeadline: unknown, fallback: number): number {
  const candidates = [timeout, receivedDeadline].filter(
    (value): value is number => typeof value === "number" && Number.isFinite(value) && value > 0,
  );
  return candidates.length === 0 ? fallback : Math.min(...candidates);
}
