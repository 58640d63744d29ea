/**
 * The federator's own progress (§9) while it waits: each engine's stages forwarded with the
 * engine named in the message, and each engine's answer summarised with the hits fused so far
 * as `partial.hits`. Overall progress is the mean of the engines' own (an engine that has
 * answered, failed or been skipped counts as done).
 */
import type { ProgressEvent } from "../protocol/types.js";
import type { FusibleHit } from "../fusion/types.js";

/** The partial of a federator's progress: the hits fused so far (§9). */
export interface FederationPartial {
  hits: FusibleHit[];
}

/** A progress event of a federated call: an engine's stage, or the hits fused so far. */
export type FederationProgressEvent = ProgressEvent<FederationPartial>;

export class ProgressSummary {
  readonly #report: (event: FederationProgressEvent) => void;
  readonly #fractions = new Map<string, number>();

  constructor(engineIds: readonly string[], report: (event: FederationProgressEvent) => void) {
    this.#report = report;
    for (const id of engineIds) this.#fractions.set(id, 0);
  }

  /** A progress frame from engine `id`. */
  engineProgress(id: string, event: ProgressEvent): void {
    const fraction = Number.isFinite(event.progress) ? Math.min(1, Math.max(0, event.progress)) : 0;
    this.#fractions.set(id, Math.max(this.#fractions.get(id) ?? 0, fraction));
    const detail = event.message ?? event.stage ?? `${Math.round(fraction * 100)}%`;
    this.#report({
      progress: this.#overall(),
      ...(event.stage === undefined ? {} : { stage: event.stage }),
      message: `${id}: ${detail}`,
    });
  }

  /** Engine `id` is done; `summary` says how, `fusedSoFar` is the fusion of every answer so far. */
  engineDone(id: string, summary: string, fusedSoFar: () => FusibleHit[]): void {
    this.#fractions.set(id, 1);
    const done = [...this.#fractions.values()].filter((fraction) => fraction === 1).length;
    this.#report({
      progress: this.#overall(),
      stage: "fuse",
      message: `${id} ${summary} (${done} of ${this.#fractions.size} engines done)`,
      partial: { hits: fusedSoFar() },
    });
  }

  #overall(): number {
    let sum = 0;
    for (const fraction of this.#fractions.values()) sum += fraction;
    return this.#fractions.size === 0 ? 1 : sum / this.#fractions.size;
  }
}
