/**
 * Replica processes of the resumable-stream tests (./replica.ts): each the test server with the
 * Redis event store, its handler events read from its stderr (`run <id>`, `done <id>`, `abort <id> <code>`).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import type { Redis } from "ioredis";
import type { ResumableOptions } from "../../runtime/src/index.js";
import { startHaproxy, startRedis, type Haproxy, type RedisServer } from "../scale/processes.js";
import { spawnAnnounced } from "../fixtures/announced.js";
import { entryPath } from "../fixtures/entry.js";

const HAPROXY_CONFIG = fileURLToPath(new URL("../../docs/examples/scale-out/haproxy.cfg", import.meta.url));
const REPLICA = entryPath("test/resume/replica.ts");

export interface Replica {
  readonly url: string;
  stderr(): string;
  stop(): void;
  /** SIGKILL: the process dies mid-stream, with no chance to end its responses or touch Redis. */
  kill(): void;
}

export async function startReplica(socket: string, prefix: string, resumable: ResumableOptions): Promise<Replica> {
  const { child, url, stderr } = await spawnAnnounced(process.execPath, [REPLICA], {
    env: { ...process.env, RCP_REPLICA: JSON.stringify({ socket, prefix, resumable }) },
  });
  return { url, stderr, stop: () => void child.kill(), kill: () => void child.kill("SIGKILL") };
}

/** A redis-server and a connected client of the test's own, to look at what the replicas left there. */
export async function startSharedRedis(): Promise<{ redis: RedisServer; client: Redis }> {
  const redis = await startRedis();
  const client = redis.client();
  client.on("error", () => {});
  await client.connect();
  return { redis, client };
}

/** Replicas behind the shipped HAProxy configuration (docs/examples/scale-out/haproxy.cfg), sharing one redis-server. */
export interface BalancedReplicas {
  readonly client: Redis;
  readonly replicas: Replica[];
  readonly haproxy: Haproxy;
  stop(): Promise<void>;
}

async function startBalancedReplicas(
  prefix: string,
  resumable: ResumableOptions,
  count = 3,
): Promise<BalancedReplicas> {
  const { redis, client } = await startSharedRedis();
  const replicas: Replica[] = [];
  for (let index = 0; index < count; index++) replicas.push(await startReplica(redis.socket, prefix, resumable));
  const haproxy = await startHaproxy(
    HAPROXY_CONFIG,
    replicas.map((replica) => replica.url),
  );
  return {
    client,
    replicas,
    haproxy,
    async stop() {
      await haproxy.stop();
      for (const replica of replicas) replica.stop();
      client.disconnect();
      await redis.stop();
    },
  };
}

/** Starts the replicas before a test file's tests (unless `skip` says why not) and stops them after. */
export function balancedReplicasForFile(
  skip: string | undefined,
  prefix: string,
  resumable: ResumableOptions,
): BalancedReplicas {
  let started: BalancedReplicas | undefined;
  beforeAll(async () => {
    if (skip === undefined) started = await startBalancedReplicas(prefix, resumable);
  });
  afterAll(() => started?.stop());
  const running = (): BalancedReplicas => {
    if (started === undefined) throw new Error("replicas not started");
    return started;
  };
  return {
    get client() {
      return running().client;
    },
    get replicas() {
      return running().replicas;
    },
    get haproxy() {
      return running().haproxy;
    },
    stop: () => running().stop(),
  };
}
