/** Runs each contender once per round, in the same order every round (A B A B ...), and keeps every sample. */
import { median } from "./stats.js";

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
