/**
 * A throughput figure says something about a server only while the load generator is not the
 * limit. A round is client-bound when the generator spent more CPU per request than the server
 * did: its req/s then measures the client, and server CPU per request is the figure to read.
 */

interface CpuSample {
  serverCpuMicrosPerRequest: number;
  clientCpuMicrosPerRequest: number;
}

export function isClientBound(sample: CpuSample): boolean {
  return sample.clientCpuMicrosPerRequest > sample.serverCpuMicrosPerRequest;
}

/** One flag line per contender with a client-bound round (samples carry both CPU figures). */
export function clientBoundNotes(samples: ReadonlyMap<string, ReadonlyArray<Record<string, number>>>): string[] {
  const notes: string[] = [];
  for (const [label, rounds] of samples) {
    const cpu = rounds.map((round) => ({
      serverCpuMicrosPerRequest: round.serverCpuMicrosPerRequest ?? Number.NaN,
      clientCpuMicrosPerRequest: round.clientCpuMicrosPerRequest ?? Number.NaN,
    }));
    const bound = cpu.filter(isClientBound);
    const first = bound[0];
    if (first === undefined) continue;
    notes.push(
      `CLIENT-BOUND ${label}: in ${bound.length}/${rounds.length} rounds the load generator's CPU per request exceeded ` +
        `the server's (e.g. ${first.clientCpuMicrosPerRequest.toFixed(1)} vs ${first.serverCpuMicrosPerRequest.toFixed(1)} us): ` +
        "its req/s measures the client; compare server CPU per request instead",
    );
  }
  return notes;
}
