/**
 * Faults the mock injects so a client's error, timeout, retry and cancel paths can be tried:
 * an error code for a method (always, or at a rate), a stall (no answer until cancelled or the
 * deadline passes), a drop after N progress frames (the connection goes away, §13.1). Given
 * for the whole run (`--fail`, `--stall`, `--drop-after`) or per request in `_meta["x-mock"]`
 * (§6.2: an `x-` name, ignored by any other server).
 */
import { isJsonObject } from "../load/json-pointer.js";

/** The `_meta` member a request names its faults in. */
export const FAULT_META_KEY = "x-mock";

export interface FailRule {
  /** A wire name, or `*` for every method. */
  readonly method: string;
  readonly code: number;
  /** The share of calls that fail, in 0..1 (1: every call). */
  readonly rate: number;
}

export interface MockFaults {
  readonly fail?: readonly FailRule[];
  /** Methods (`*`: all) that never answer until cancelled or past their deadline. */
  readonly stall?: readonly string[];
  /** Progress frames a call sends before the connection drops. */
  readonly dropAfter?: number;
}

/** What happens to one call. */
export interface CallFaults {
  readonly fail?: number;
  readonly stall: boolean;
  readonly dropAfter?: number;
  readonly latencyMs?: number;
}

/** `retrieve=-32014`, `retrieve=-32014@0.1`, `*=-32603@0.5`; a mistake is a message, never a throw. */
export function parseFailRule(text: string): FailRule | string {
  const match = /^([^=]+)=(-?\d+)(?:@(\d*\.?\d+))?$/.exec(text);
  if (match === null) return `--fail takes <method>=<code>[@<rate>], e.g. retrieve=-32014@0.1; got ${text}`;
  const rate = match[3] === undefined ? 1 : Number(match[3]);
  if (!(rate >= 0 && rate <= 1)) return `--fail rate must be in 0..1, got ${match[3]}`;
  return { method: match[1]!, code: Number(match[2]), rate };
}

/** The faults of one call: its `_meta["x-mock"]` first, then the run's. */
export function faultsOf(
  method: string,
  meta: Readonly<Record<string, unknown>>,
  run: MockFaults,
  random: () => number,
): CallFaults {
  const asked = isJsonObject(meta[FAULT_META_KEY]) ? meta[FAULT_META_KEY] : {};
  const rule = run.fail?.find((entry) => entry.method === method || entry.method === "*");
  const failed =
    typeof asked.fail === "number" ? asked.fail : rule !== undefined && random() < rule.rate ? rule.code : undefined;
  const dropAfter = typeof asked.dropAfter === "number" ? asked.dropAfter : run.dropAfter;
  return {
    ...(failed === undefined ? {} : { fail: failed }),
    stall: asked.stall === true || (run.stall ?? []).some((entry) => entry === method || entry === "*"),
    ...(dropAfter === undefined ? {} : { dropAfter }),
    ...(typeof asked.latencyMs === "number" ? { latencyMs: asked.latencyMs } : {}),
  };
}
