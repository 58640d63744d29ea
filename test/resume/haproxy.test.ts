/**
 * Resumable streams behind the shipped HAProxy configuration (docs/examples/scale-out/haproxy.cfg)
 * with three replica processes sharing a real redis-server through `redisEventStore`: streaming
 * calls through a TCP proxy that cuts connections mid-stream (./cutting-proxy.ts), their
 * reconnects balanced over the replicas, each call answered once with every frame once and in
 * order, no handler run twice on any replica; and nothing left in Redis after the time to live.
 */
import { describe, expect, it } from "vitest";
import { missingBinaries } from "../scale/processes.js";
import { chaos } from "./chaos.js";
import { wait } from "./peers.js";
import { balancedReplicasForFile } from "./replicas.js";

const skip = missingBinaries("resumable streams behind HAProxy");
if (skip !== undefined) console.log(skip);

const TTL_MS = 3000;
const RESUMABLE = { graceMs: 2000, retryMs: 5, ttlMs: TTL_MS, maxStreamsPerCaller: 10_000, maxStreams: 10_000 };
const PREFIX = `resume-haproxy:${process.pid}:`;
const CALLS = 60;

const deployment = balancedReplicasForFile(skip, PREFIX, RESUMABLE);

/** How many times each request's handler ran, over every replica. */
function runs(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const replica of deployment.replicas)
    for (const line of replica.stderr().split("\n"))
      if (line.startsWith("run ")) counts.set(line.slice(4), (counts.get(line.slice(4)) ?? 0) + 1);
  return counts;
}

describe.skipIf(skip !== undefined)("three replicas behind HAProxy, sharing Redis", () => {
  it(`chaos: ${CALLS} streaming calls cut at random, resumed through the balancer`, async () => {
    const outcome = await chaos({ calls: CALLS, target: { url: `${deployment.haproxy.url}/rcp`, runs } });
    expect(outcome.faults).toEqual([]);
    expect(outcome.cuts).toBeGreaterThan(10);
    // Round robin spreads the calls: every replica ran handlers.
    for (const replica of deployment.replicas) expect(replica.stderr()).toMatch(/^run /m);
    // A replica reads a stream from Redis (XREAD) only when another one runs its handler.
    const reads = /cmdstat_xread:calls=(\d+)/.exec(await deployment.client.info("commandstats"));
    expect(Number(reads?.[1] ?? 0)).toBeGreaterThan(0);
  });

  it("nothing is left in Redis once the time to live has passed", async () => {
    await wait(TTL_MS + 1000);
    expect(await deployment.client.keys(`${PREFIX}*`)).toEqual([]);
  });
});
