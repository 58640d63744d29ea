/** Reading a V8 .cpuprofile (node --cpu-prof): the share of busy samples whose own code matches. */
import { readFileSync } from "node:fs";

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string } }>;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time of the functions whose script URL satisfies `matches`, as a share (0..1) of all
 * sampled time that was not idle. Self time, so a validator's callers are not counted.
 */
export function selfTimeShare(profilePath: string, matches: (url: string) => boolean): number {
  const profile = JSON.parse(readFileSync(profilePath, "utf8")) as CpuProfile;
  const timeByNode = new Map<number, number>();
  profile.samples.forEach((nodeId, index) =>
    timeByNode.set(nodeId, (timeByNode.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  );
  let busy = 0;
  let matched = 0;
  for (const node of profile.nodes) {
    const time = timeByNode.get(node.id) ?? 0;
    if (node.callFrame.functionName === "(idle)") continue;
    busy += time;
    if (matches(node.callFrame.url)) matched += time;
  }
  return busy > 0 ? matched / busy : Number.NaN;
}
