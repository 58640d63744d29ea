/**
 * Replica processes of the resumable-stream tests (./replica.ts): each the test server with the
 * Redis event store, its handler events read from its stderr (`run <id>`, `done <id>`, `abort <id> <code>`).
 */
import { spawn } from "node:child_process";
import type { Redis } from "ioredis";
import type { ResumableOptions } from "../../runtime/src/index.js";
import { startRedis, type RedisServer } from "../scale/processes.js";
import { entryPath } from "../fixtures/entry.js";

const REPLICA = entryPath("test/resume/replica.ts");

export interface Replica {
  readonly url: string;
  stderr(): string;
  stop(): void;
}

export function startReplica(socket: string, prefix: string, resumable: ResumableOptions): Promise<Replica> {
  const child = spawn(process.execPath, [REPLICA], {
    env: { ...process.env, RCP_REPLICA: JSON.stringify({ socket, prefix, resumable }) },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`replica exited ${code}: ${stderr}`)));
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      if (!stdout.includes("\n")) return;
      const { url } = JSON.parse(stdout.slice(0, stdout.indexOf("\n"))) as { url: string };
      resolve({ url, stderr: () => stderr, stop: () => void child.kill() });
    });
  });
}

/** A redis-server and a connected client of the test's own, to look at what the replicas left there. */
export async function startSharedRedis(): Promise<{ redis: RedisServer; client: Redis }> {
  const redis = await startRedis();
  const client = redis.client();
  client.on("error", () => {});
  await client.connect();
  return { redis, client };
}
