/**
 * Resumable streams across replicas (docs/resumable-streams.md): two server processes share a
 * real redis-server through `redisEventStore`; a stream started on one, cut, is resumed on the
 * other while its handler keeps running on the first, and nothing is left in Redis once the
 * streams' time to live has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { missingBinaries, type RedisServer } from "../scale/processes.js";
import { eventually, frames, lastId, parseSse, postStream, resume, wait } from "./peers.js";
import { startReplica, startSharedRedis, type Replica } from "./replicas.js";

const skip = missingBinaries("resumable streams on Redis");
if (skip !== undefined) console.log(skip);

const RESUMABLE = { graceMs: 300, retryMs: 50, ttlMs: 1500, maxFrames: 100 };
const PREFIX = `resume:${process.pid}:`;
const OPT_IN = { "x-rcp-resumable": "1" };

let redis: RedisServer;
let client: Redis;
const replicas: Replica[] = [];
beforeAll(async () => {
  if (skip !== undefined) return;
  ({ redis, client } = await startSharedRedis());
  replicas.push(
    await startReplica(redis.socket, PREFIX, RESUMABLE),
    await startReplica(redis.socket, PREFIX, RESUMABLE),
  );
});
afterAll(async () => {
  for (const replica of replicas) replica.stop();
  client?.disconnect();
  await redis?.stop();
});

const steps = (text: string) =>
  frames(parseSse(text)).flatMap((frame) => (frame.params?.partial ? [frame.params.partial.step] : []));
const finals = (text: string) => frames(parseSse(text)).filter((frame) => frame.id !== undefined);
const lines = (replica: Replica, id: string) =>
  replica
    .stderr()
    .split("\n")
    .filter((line) => line.split(" ")[1] === id);

describe.skipIf(skip !== undefined)("two replicas sharing Redis", () => {
  it("a stream cut on one replica is resumed on the other while its handler runs on the first, once", async () => {
    const [a, b] = replicas as [Replica, Replica];
    // The tail outlasts the grace period: the reader on B holds a lease that keeps A's handler alive.
    const first = await postStream(
      a.url,
      "moved",
      { steps: 12, ms: 60 },
      { headers: OPT_IN, until: (text) => text.includes('"step":2}') },
    );
    const rest = await resume(b.url, lastId(first.text));
    expect([...steps(first.text), ...steps(rest.text)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(finals(first.text + rest.text)).toEqual([{ jsonrpc: "2.0", id: "moved", result: { steps: 12 } }]);
    expect(lines(a, "moved")).toEqual(["run moved", "done moved"]);
    expect(lines(b, "moved")).toEqual([]);
  });

  it("a DELETE on the other replica cancels the handler at once", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const first = await postStream(
      a.url,
      "far-cancel",
      { steps: 200, ms: 20 },
      { headers: OPT_IN, until: (text) => text.includes("progress") },
    );
    expect((await resume(b.url, lastId(first.text), { method: "DELETE" })).status).toBe(204);
    expect(await eventually(() => a.stderr().includes("abort far-cancel -32006"))).toBe(true);
    const rest = await resume(b.url, lastId(first.text));
    expect(finals(rest.text)[0]!.error!.code).toBe(-32006);
  });

  it("without a reader anywhere the handler is abandoned after the grace period", async () => {
    const [a] = replicas as [Replica, Replica];
    await postStream(
      a.url,
      "left",
      { steps: 200, ms: 20 },
      { headers: OPT_IN, until: (text) => text.includes("progress") },
    );
    expect(await eventually(() => a.stderr().includes("abort left"))).toBe(true);
  });

  it("nothing is left in Redis once the time to live has passed", async () => {
    expect((await client.keys(`${PREFIX}*`)).length).toBeGreaterThan(0);
    await wait(RESUMABLE.ttlMs + 500);
    expect(await client.keys(`${PREFIX}*`)).toEqual([]);
  });
});
