/**
 * Scenario 17: resumable streams with the Redis event store (issue 43, "Targets"), on a
 * redis-server of the scenario's own (test/scale/processes.ts).
 *
 * - Redis memory: N streams held open at once, `used_memory` before and with them, and each
 *   stream's keys (`MEMORY USAGE`); then, once they have ended and their time to live has
 *   passed, no key left and `used_memory` back near the start (gated).
 * - Yield-to-read p50 with the frames also going to Redis against resumption off, in
 *   alternating rounds of scenario 3's measurement (the frames go to the client and to Redis
 *   side by side: gated at 1.5x).
 * - A reconnect after a cut: the first missed frame arrives within 2x the client's first backoff
 *   step plus one round trip (load/resume-load.ts, gated on the median over every cut).
 */
import type { Redis } from "ioredis";
import { alternate, medianRoundRatio, medianTable } from "../alternate.js";
import { startHttpServer } from "../http-server.js";
import type { ResumeLoadConfig, ResumeLoadResult } from "../load/resume-load.js";
import type { Mode } from "../modes.js";
import {
  HTTP_PEERS,
  OURS,
  OURS_RESUMABLE_REDIS,
  missingOursNote,
  resumableRedisPeer,
  type HttpPeer,
} from "../peers.js";
import { runJsonChild } from "../processes.js";
import { ratioAtMost, type ScenarioReport, type Target } from "../report.js";
import { startRedis } from "../../scale/processes.js";
import { loadScript } from "./scripts.js";
import { sseRound } from "./sse.js";

/** The streams' time to live in this scenario: short, so the memory check does not wait a minute. */
const TTL_MS = 1000;
/** Progress frames each held stream has sent when Redis memory is read. */
const FRAMES_HELD = 10;
/** The client's first backoff step in the reconnect measurement. */
const INITIAL_DELAY_MS = 50;
/** How far `used_memory` may stay above its start once every stream has expired. */
const MEMORY_LEFT_BYTES = 16 * 1024;

export async function resumableScenario(mode: Mode): Promise<ScenarioReport> {
  const ours = HTTP_PEERS.find((peer) => peer.label === OURS);
  if (ours === undefined) throw new Error(missingOursNote().join("; "));
  const redis = await startRedis();
  const client = redis.client();
  client.on("error", () => {});
  try {
    await client.connect();
    const withRedis = resumableRedisPeer(redis.socket);
    const shortLived = (peer: HttpPeer): HttpPeer => ({
      ...peer,
      env: { ...peer.env, BENCH_RESUMABLE_TTL_MS: String(TTL_MS) },
    });
    const memory = await redisMemory(client, shortLived(withRedis), mode.resume.streams);
    const contenders = [ours, withRedis];
    const samples = await alternate(mode.rounds, contenders, (peer) => sseRound(peer, mode.sse));
    const { rows } = medianTable(contenders, samples);
    // The default time to live: a call cut after every frame falls behind its stream by seconds.
    const reconnect = await reconnectDelay(withRedis, mode.resume.calls);
    const targets: Target[] = [
      ratioAtMost(
        "SSE yield-to-read p50, resumable (Redis store) / off, median of the rounds' ratios",
        medianRoundRatio(samples, OURS_RESUMABLE_REDIS, OURS, "delayP50Ms"),
        1.5,
      ),
      {
        name: "reconnect after a cut: first missed frame, p50",
        measured: reconnect.firstMissedP50Ms,
        threshold: 2 * INITIAL_DELAY_MS + reconnect.roundTripP50Ms,
        kind: "max",
        unit: " ms",
      },
      {
        name: "Redis used_memory after the streams expired, above the start",
        measured: memory.leftBytes,
        threshold: MEMORY_LEFT_BYTES,
        kind: "max",
        unit: " B",
      },
      {
        name: "Redis keys left after the streams expired",
        measured: memory.keysLeft,
        threshold: 0,
        kind: "max",
        unit: "",
      },
    ];
    return {
      id: "17",
      title: `resumable streams on Redis: ${mode.resume.streams} streams held, ${mode.sse.streams} streams x ${mode.sse.events} frames ${mode.sse.intervalMs} ms apart per round (median of ${mode.rounds}), ${mode.resume.calls} calls cut after every frame`,
      rows: [
        ...rows,
        { label: "reconnect after a cut", metrics: { ...reconnect, firstBackoffStepMs: INITIAL_DELAY_MS } },
        { label: "Redis memory", metrics: { ...memory } },
      ],
      targets,
      samples: Object.fromEntries(samples),
      notes: [
        `Redis memory: ${mode.resume.streams} streams open at once, each past ${FRAMES_HELD} frames: used_memory growth per stream (perStreamBytes) and MEMORY USAGE of its keys (keyBytesPerStream); after they ended and ${TTL_MS} ms of time to live: keys and bytes left`,
        "reconnect: cut to the first frame read after the reconnect began (backoff, resume request, replay); every response is cut right after its first id'd event; the round trip is a ping through the same proxy",
      ],
    };
  } finally {
    client.disconnect();
    await redis.stop();
  }
}

/** Redis `used_memory`, in bytes. */
async function usedMemory(client: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await client.info("memory"))?.[1] ?? Number.NaN);
}

async function keys(client: Redis): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of client.scanStream({ match: "bench:*", count: 1000 })) found.push(...(batch as string[]));
  return found;
}

/**
 * `count` resumable streams at once against a server storing them on Redis, read to their end;
 * resolves `held` once each has sent FRAMES_HELD frames.
 */
function openStreams(peer: HttpPeer, url: string, count: number, held: () => void): Promise<unknown> {
  const target = peer.target(url, { progressToken: "bench" });
  const progress = Array.from({ length: count }, () => 0);
  return Promise.all(
    progress.map(async (_, index) => {
      const response = await fetch(target.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...target.headers },
        body: target.body,
      });
      const decoder = new TextDecoder();
      for await (const chunk of response.body!) {
        progress[index]! += decoder.decode(chunk, { stream: true }).split("notifications/progress").length - 1;
        if (progress.every((frames) => frames >= FRAMES_HELD)) held();
      }
    }),
  );
}

/**
 * Redis memory with `count` streams open, each past FRAMES_HELD frames, against the start; then
 * once they have ended and expired. Two waves of the same streams, measured the same way: the
 * second's figures count, so Redis' one-time allocations (the server's connections, the first
 * stream's structures, the latency histogram of each command's first use) are not growth.
 */
async function redisMemory(client: Redis, peer: HttpPeer, count: number) {
  // Long enough that every stream is still open when memory is read.
  const server = await startHttpServer(peer.script, { ...peer.env, BENCH_STREAM: `${FRAMES_HELD * 4}x25` });
  const wave = async () => {
    let held: () => void = () => {};
    const reached = new Promise<void>((resolve) => (held = resolve));
    const streams = openStreams(peer, server.url, count, () => held());
    await reached;
    const withStreamsBytes = await usedMemory(client);
    const streamKeys = await keys(client);
    const keyBytes = await Promise.all(streamKeys.map(async (key) => Number(await client.memory("USAGE", key))));
    await streams;
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 1000));
    return { withStreamsBytes, streamKeys, keyBytes, endBytes: await usedMemory(client) };
  };
  try {
    const { endBytes: startBytes } = await wave();
    const { withStreamsBytes, streamKeys, keyBytes, endBytes } = await wave();
    return {
      streams: count,
      keysHeld: streamKeys.length,
      perStreamBytes: (withStreamsBytes - startBytes) / count,
      keyBytesPerStream: keyBytes.reduce((sum, bytes) => sum + bytes, 0) / count,
      keysLeft: (await keys(client)).length,
      leftBytes: endBytes - startBytes,
    };
  } finally {
    await server.stop();
  }
}

/** The reconnect measurement (load/resume-load.ts) against one server storing its streams on Redis. */
async function reconnectDelay(peer: HttpPeer, calls: number): Promise<ResumeLoadResult> {
  // Frames 10 ms apart: each backoff wait (25-50 ms) misses some, so every reconnect has one to replay.
  const server = await startHttpServer(peer.script, { ...peer.env, BENCH_STREAM: "20x10" });
  try {
    const config: ResumeLoadConfig = {
      url: server.url,
      calls,
      pings: 200,
      initialDelayMs: INITIAL_DELAY_MS,
      timeoutMs: 60_000 + calls * 5_000,
    };
    return await runJsonChild<ResumeLoadResult>({
      script: loadScript("resume-load"),
      args: [JSON.stringify(config)],
      timeoutMs: config.timeoutMs + 10_000,
    });
  } finally {
    await server.stop();
  }
}
