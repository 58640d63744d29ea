/** What one check concludes, and the helpers that say it (kept apart so that what decides a verdict needs no check table). */

/**
 * `inconclusive`: the check could not decide, because its evidence (hits) did not come: the
 * probe query found nothing. Nothing was shown wrong, and nothing was shown right either.
 */
export interface Verdict {
  readonly status: "pass" | "fail" | "skip" | "inconclusive";
  readonly detail?: string;
}

export const pass = (detail?: string): Verdict => ({ status: "pass", ...(detail === undefined ? {} : { detail }) });
export const fail = (detail: string): Verdict => ({ status: "fail", detail });
export const skip = (reason: string): Verdict => ({ status: "skip", detail: reason });
export const inconclusive = (detail: string): Verdict => ({ status: "inconclusive", detail });
export const verdict = (ok: boolean, detail: string): Verdict => (ok ? pass() : fail(detail));
