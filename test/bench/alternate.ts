/** Runs each contender once per round, in the same order every round (A B A B ...), and keeps every sample. */
import { median, ratio } from "./stats.js";

export interface Contender {
  label: string;
  /** No target reads its figures: it runs in the first `reportedRounds` rounds only. */
  reportedOnly?: boolean;
}

export async function alternate<C extends Contender, R extends Record<string, number>>(
  rounds: number,
  contenders: readonly C[],
  runOnce: (contender: C) => Promise<R>,
  reportedRounds = rounds,
): Promise<Map<string, R[]>> {
  const samples = new Map<string, R[]>(contenders.map((contender) => [contender.label, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of contenders) {
      if (contender.reportedOnly && round >= reportedRounds) continue;
      samples.get(contender.label)?.push(await runOnce(contender));
    }
  }
  return samples;
}

/** A note naming the contenders that ran in fewer rounds than the others, if any did. */
export function reportedOnlyNotes(contenders: readonly Contender[], rounds: number, reportedRounds: number): string[] {
  const labels = contenders.filter((contender) => contender.reportedOnly).map((contender) => contender.label);
  if (labels.length === 0 || reportedRounds >= rounds) return [];
  return [`${labels.join(", ")}: no target reads these, so they ran in ${reportedRounds} of the ${rounds} rounds`];
}

/** Per-metric medians over the samples of one contender. */
export function medians<R extends Record<string, number>>(samples: readonly R[]): Record<string, number> {
  const names = Object.keys(samples[0] ?? {});
  return Object.fromEntries(names.map((name) => [name, median(samples.map((sample) => sample[name] ?? Number.NaN))]));
}

export interface MedianTable {
  /** One row per contender, in contender order: each metric's median over the rounds. */
  rows: Array<{ label: string; metrics: Record<string, number> }>;
  /** A row's median of one metric; NaN when the contender or metric is missing. */
  metric: (label: string, name: string) => number;
}

export function medianTable<R extends Record<string, number>>(
  contenders: ReadonlyArray<{ label: string }>,
  samples: ReadonlyMap<string, readonly R[]>,
): MedianTable {
  const rows = contenders.map((contender) => ({
    label: contender.label,
    metrics: medians(samples.get(contender.label) ?? []),
  }));
  return { rows, metric: (label, name) => rows.find((row) => row.label === label)?.metrics[name] ?? Number.NaN };
}

/**
 * The median over rounds of `of`'s `name` over `to`'s in the same round. Contenders that run
 * back to back in a round share the machine's load, which on a shared machine moves between
 * rounds more than the difference measured: a ratio per round, then the median, cancels it.
 */
export function medianRoundRatio<R extends Record<string, number>>(
  samples: ReadonlyMap<string, readonly R[]>,
  of: string,
  to: string,
  name: string,
): number {
  const over = samples.get(to) ?? [];
  return median(
    (samples.get(of) ?? []).map((sample, round) =>
      ratio(sample[name] ?? Number.NaN, over[round]?.[name] ?? Number.NaN),
    ),
  );
}
