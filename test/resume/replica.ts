/**
 * One replica of the resumable-stream tests as a process of its own: the test server with the
 * Redis event store. Options come in RCP_REPLICA (JSON: the Redis socket, the key prefix and
 * the resumable settings); it prints its URL as the first stdout line and each handler event on
 * stderr (./peers.ts).
 */
import { redisEventStore } from "../../runtime/src/redis/index.js";
import type { ResumableOptions } from "../../runtime/src/index.js";
import { redisClient } from "../scale/processes.js";
import { startServer } from "./peers.js";

const { socket, prefix, resumable } = JSON.parse(process.env.RCP_REPLICA ?? "{}") as {
  socket: string;
  prefix: string;
  resumable: ResumableOptions;
};
const client = redisClient(socket);
client.on("error", () => {});
await client.connect();
const store = redisEventStore({ client, prefix });
const server = await startServer(
  { resumable: { ...resumable, store } },
  { report: (line) => process.stderr.write(`${line}\n`) },
);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
