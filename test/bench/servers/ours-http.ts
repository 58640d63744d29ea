/**
 * Ours over node:http (§5.2), announcing its base URL (`.../rcp`) once listening. With
 * BENCH_REDIS_SOCKET (a redis-server's unix socket) its resumable streams also go to Redis
 * through `redisEventStore`, as a replica behind a load balancer keeps them.
 */
import { listen } from "@rcp-gen/runtime/node";
import type { EventStore } from "@rcp-gen/runtime";
import { announceUrl } from "./announce.js";
import { createOursServer } from "./ours-server.js";

/** Loaded only when asked for: the start-up scenario times this server without Redis. */
async function redisStore(socket: string): Promise<EventStore> {
  const [{ redisClient }, { redisEventStore }] = await Promise.all([
    import("../../scale/processes.js"),
    import("@rcp-gen/runtime/redis"),
  ]);
  const client = redisClient(socket);
  client.on("error", (error: Error) => process.stderr.write(`redis: ${error.message}\n`));
  await client.connect();
  return redisEventStore({ client, prefix: "bench:" });
}

const socket = process.env.BENCH_REDIS_SOCKET;
const store = socket === undefined ? undefined : await redisStore(socket);
const listening = await listen(createOursServer(store), { port: 0, host: "127.0.0.1" });
announceUrl(listening.url);
