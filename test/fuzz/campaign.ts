/**
 * One fuzz campaign: fast-check generates sequences of frames, a target sends them to a real
 * server, and the property is that the target saw no problem and the server is still up.
 * Afterwards the server's heap, after a full collection, must be back near its baseline.
 */
import fc from "fast-check";
import { FAULTY_METHODS, fuzzSequence, type FuzzFrame } from "./frames.js";
import type { FuzzTarget } from "./targets.js";

export interface FuzzCounts {
  framesFuzzed: number;
  faultsInjected: number;
  responsesChecked: number;
  failuresFound: number;
}

export interface CampaignResult {
  counts: FuzzCounts;
  /** The shrunk counterexample and its problems, when the property failed. */
  failure: string | undefined;
  heapGrowthBytes: number;
}

export interface CampaignOptions {
  seed: number;
  numRuns: number;
  /** Heap growth (after GC) tolerated across the whole campaign. */
  maxHeapGrowthBytes: number;
}

const faultMethod = /"method":"([^"]+)"/g;

function isFault(frame: FuzzFrame): boolean {
  if (frame.kind !== "valid") return true;
  for (const [, method] of frame.bytes.toString("utf8").matchAll(faultMethod))
    if (FAULTY_METHODS.has(method!)) return true;
  return false;
}

export async function runCampaign(target: FuzzTarget, options: CampaignOptions): Promise<CampaignResult> {
  const counts: FuzzCounts = { framesFuzzed: 0, faultsInjected: 0, responsesChecked: 0, failuresFound: 0 };
  // Warm up first, so lazily compiled code and caches are part of the baseline.
  await target.exchange([{ kind: "valid", bytes: Buffer.from('{"jsonrpc":"2.0","id":"warm","method":"ping"}') }]);
  const baseline = await target.heapUsed();
  let firstFailure: string | undefined;
  const property = fc.asyncProperty(fuzzSequence, async (frames) => {
    counts.framesFuzzed += frames.length;
    counts.faultsInjected += frames.filter(isFault).length;
    const verdict = await target
      .exchange(frames)
      .catch((error: unknown) => ({ problems: [String(error)], answers: 0 }));
    counts.responsesChecked += verdict.answers;
    if (!target.alive) verdict.problems.push(`the server died: ${target.stderr.slice(-400)}`);
    if (verdict.problems.length === 0) return;
    const problems = verdict.problems.slice(0, 10).join("\n");
    firstFailure ??= `${showFrames(frames)}\n${problems}`;
    throw new Error(problems);
  });
  const details = await fc.check(property, { seed: options.seed, numRuns: options.numRuns });
  // Once the server is dead every shrink fails too, so the sequence that killed it is the one to show.
  // The property stops at its first failing sequence (then shrinks it): one failure per campaign.
  if (details.failed) counts.failuresFound++;
  let failure: string | undefined = details.failed
    ? target.alive
      ? describeFailure(details)
      : `seed ${options.seed}:\n${firstFailure}`
    : undefined;
  const heapGrowthBytes = target.alive ? (await target.heapUsed()) - baseline : Number.NaN;
  if (!failure && !(heapGrowthBytes < options.maxHeapGrowthBytes)) {
    counts.failuresFound++;
    failure = `the server's heap grew by ${heapGrowthBytes} bytes after GC (limit ${options.maxHeapGrowthBytes})`;
  }
  return { counts, failure, heapGrowthBytes };
}

function showFrames(frames: readonly FuzzFrame[]): string {
  return frames
    .map((frame) => `  ${frame.kind}: ${JSON.stringify(frame.bytes.toString("utf8")).slice(0, 300)}`)
    .join("\n");
}

function describeFailure(details: fc.RunDetails<[FuzzFrame[]]>): string {
  const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `seed ${details.seed}, path ${details.counterexamplePath}:\n${showFrames(details.counterexample?.[0] ?? [])}\n${reason}`;
}
