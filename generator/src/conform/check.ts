/**
 * What a conformance check is: an entry of the table (checks/index.ts) with the spec section
 * it enforces, the level it belongs to (§14), whether it is a MUST or only a SHOULD, the phase
 * of the run it needs, and a run that returns one verdict or one per case (per method, per
 * option gate, per filter rule...).
 */
import type { ConformContext } from "./context.js";
import type { Verdict } from "./verdict.js";
import type { Transport } from "./session.js";

export { fail, inconclusive, pass, skip, verdict, type Verdict } from "./verdict.js";

export type Level = "L0" | "L1" | "L2";
export const LEVELS: readonly Level[] = ["L0", "L1", "L2"];

/**
 * `handshake`: a fresh, uninitialized session (stdio: its own process).
 * `main`: a session initialized once, for everything else. `ending`: that session, shut down.
 */
export type Phase = "handshake" | "main" | "ending";

/** One case of an entry that checks many things of one kind. */
export interface CaseVerdict extends Verdict {
  readonly key: string;
  readonly title: string;
  readonly section?: string;
  /** A SHOULD within an entry of MUSTs. */
  readonly should?: true;
}

export interface CheckEntry {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  /** A SHOULD: a failure is reported as a warning and does not lower the certified level. */
  readonly should?: true;
  readonly title: string;
  /** Only over this transport. */
  readonly on?: Transport;
  readonly phase: Phase;
  run(ctx: ConformContext): Verdict | CaseVerdict[] | Promise<Verdict | CaseVerdict[]>;
}

export type Status = "pass" | "fail" | "warn" | "skip" | "inconclusive";

/** One line of the report. */
export interface CheckResult {
  readonly id: string;
  readonly section: string;
  readonly level: Level;
  readonly must: boolean;
  readonly title: string;
  readonly status: Status;
  readonly detail?: string;
}

/** A compact rendering of a frame for a report line. */
export function shown(value: unknown, max = 160): string {
  if (value === undefined) return "nothing";
  const json = typeof value === "string" ? value : (JSON.stringify(value) ?? typeof value);
  return json.length > max ? `${json.slice(0, max - 1)}…` : json;
}
