/** Runs each contender once per round, in the same order every round (A B A B ...), and keeps every sample. */
import { median, ratio } from "./stats.js";

export async function alternate<C extends { label: string }, R extends Record<string, number>>(
  rounds: number,
  contenders: readonly C[],
  runOnce: (contender: C) => Promise<R>,
): Promise<Map<string, R[]>> {
  const samples = new Map<string, R[]>(contenders.map((contender) => [contender.label, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of contenders) samples.get(contender.label)?.push(await runOnce(contender));
  }
  return samples;
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
