/**
 * Resumable streams behind the shipped HAProxy configuration (docs/examples/scale-out/haproxy.cfg)
 * with three replica processes sharing a real redis-server through `redisEventStore`: streaming
 * calls through a TCP proxy that cuts connections mid-stream (./cutting-proxy.ts), their
 * reconnects balanced over the replicas, each call answered once with every frame once and in
 * order, no handler run twice on any replica; and nothing left in Redis after the time to live.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { missingBinaries, startHaproxy, type Haproxy, type RedisServer } from "../scale/processes.js";
import { chaos } from "./chaos.js";
import { wait } from "./peers.js";
import { startReplica, startSharedRedis, type Replica } from "./replicas.js";

const skip = missingBinaries("resumable streams behind HAProxy");
if (skip !== undefined) console.log(skip);

const HAPROXY_CONFIG = fileURLToPath(new URL("../../docs/examples/scale-out/haproxy.cfg", import.meta.url));
const TTL_MS = 3000;
const RESUMABLE = { graceMs: 2000, retryMs: 5, ttlMs: TTL_MS, maxStreamsPerCaller: 10_000, maxStreams: 10_000 };
const PREFIX = `resume-haproxy:${process.pid}:`;
const CALLS = 60;

let redis: RedisServer;
let client: Redis;
let haproxy: Haproxy;
const replicas: Replica[] = [];
beforeAll(async () => {
  if (skip !== undefined) return;
  ({ redis, client } = await startSharedRedis());
  for (let index = 0; index < 3; index++) replicas.push(await startReplica(redis.socket, PREFIX, RESUMABLE));
  haproxy = await startHaproxy(
    HAPROXY_CONFIG,
    replicas.map((replica) => replica.url),
  );
});
afterAll(async () => {
  await haproxy?.stop();
  for (const replica of replicas) replica.stop();
  client?.disconnect();
  await redis?.stop();
});

/** How many times each request's handler ran, over every replica. */
function runs(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const replica of replicas)
    for (const line of replica.stderr().split("\n"))
      if (line.startsWith("run ")) counts.set(line.slice(4), (counts.get(line.slice(4)) ?? 0) + 1);
  return counts;
}

describe.skipIf(skip !== undefined)("three replicas behind HAProxy, sharing Redis", () => {
  it(`chaos: ${CALLS} streaming calls cut at random, resumed through the balancer`, async () => {
    const outcome = await chaos({ calls: CALLS, target: { url: `${haproxy.url}/rcp`, runs } });
    expect(outcome.faults).toEqual([]);
    expect(outcome.cuts).toBeGreaterThan(10);
    // Round robin spreads the calls: every replica ran handlers.
    for (const replica of replicas) expect(replica.stderr()).toMatch(/^run /m);
    // A replica reads a stream from Redis (XREAD) only when another one runs its handler.
    const reads = /cmdstat_xread:calls=(\d+)/.exec(await client.info("commandstats"));
    expect(Number(reads?.[1] ?? 0)).toBeGreaterThan(0);
  });

  it("nothing is left in Redis once the time to live has passed", async () => {
    await wait(TTL_MS + 1000);
    expect(await client.keys(`${PREFIX}*`)).toEqual([]);
  });
});
