/**
 * Scenario 13: scale-out (issue 32). Three demo-engine replicas behind HAProxy
 * (docs/examples/scale-out/haproxy.cfg) with sessions and rate limits on Redis, against one replica
 * reached directly with its state in memory: the CPU every process spends per request, summed
 * (replicas + HAProxy + Redis), and the throughput of both (reported, not gated: on 2 cores it
 * measures how the processes share the CPU; reported, not gated). Then, one request at a time on
 * one replica, what a session lookup on Redis adds to the p50 latency (limiter off, so it is the
 * only round trip). Last, a replica killed under load: a request sent once HAProxy has seen the
 * replica go must be retried on another, so the gate is that none of those is lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildProcess } from "node:child_process";
import { alternate, medianTable, reportedOnlyNotes } from "../alternate.js";
import { procCpuMicros } from "../proc-cpu.js";
import { startHttpServer, type RunningHttpServer } from "../http-server.js";
import type { HttpLoadConfig, HttpLoadResult } from "../load/http-load.js";
import type { Mode } from "../modes.js";
import { runJsonChild, spawnProgram, stopChild } from "../processes.js";
import type { ScenarioReport, Target } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";
import { freePort } from "../../net/free-port.js";
import { canConnect, HAPROXY, haproxyConfig, REDIS_SERVER, until } from "../../scale/processes.js";

const REPLICA = fileURLToPath(new URL("../servers/scale-replica.js", import.meta.url));
const HAPROXY_CONFIG = fileURLToPath(new URL("../../../../docs/examples/scale-out/haproxy.cfg", import.meta.url));
const ID = "__BENCH_ID__";
/** A request body whose id the load generator numbers (one session needs ids unique in flight, §4.7). */
const body = (method: string, params: object): string =>
  JSON.stringify({ jsonrpc: "2.0", id: ID, method, params }).replace(`"${ID}"`, ID);
const RETRIEVE = { method: "retrieve", body: body("retrieve", { query: "hybrid retrieval", k: 5 }) };
/** The lookup pair pings: a session is looked up for every request that carries a token, and a ping does little else. */
const PING = { method: "ping", body: body("ping", {}) };
const LOOKUP_REQUESTS = { tiny: 50, quick: 600, full: 5_000 } as const;
/** Retrieves per round of the reported throughput and CPU comparison, after each replica's warm-up. */
const RETRIEVE_REQUESTS = { tiny: 200, quick: 500, full: 6_000 } as const;
/** Retrieves per worker in the kill phase, 4 workers; a replica is killed once a quarter are answered. */
const KILL_PHASE_REQUESTS = { tiny: 20, quick: 60, full: 150 } as const;
/** How long HAProxy may take to see a killed replica's connections close, on a loaded machine. */
const KILL_NOTICED_MS = 300;

interface Deployment {
  /** Where the load goes: a replica's or HAProxy's base URL. */
  url: string;
  replicas: RunningHttpServer[];
  redis?: ChildProcess;
  haproxy?: ChildProcess;
  stop(): Promise<void>;
}

async function startRedis(): Promise<{ child: ChildProcess; url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "rcp-bench-redis-"));
  const port = await freePort();
  const child = spawnProgram(REDIS_SERVER, [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
  ]);
  await until(
    () => canConnect(port),
    () => "redis-server did not listen",
  );
  return { child, url: `redis://127.0.0.1:${port}`, dir };
}

async function deploy(replicas: number, redis: boolean, env: Record<string, string> = {}): Promise<Deployment> {
  const others: ChildProcess[] = [];
  const dirs: string[] = [];
  const started: RunningHttpServer[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all([...started.map((replica) => replica.stop()), ...others.map((child) => stopChild(child))]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    let replicaEnv = env;
    let redisChild: ChildProcess | undefined;
    if (redis) {
      const server = await startRedis();
      redisChild = server.child;
      others.push(server.child);
      dirs.push(server.dir);
      replicaEnv = { ...env, BENCH_REDIS: server.url };
    }
    started.push(...(await Promise.all(Array.from({ length: replicas }, () => startHttpServer(REPLICA, replicaEnv)))));
    const deployment = { replicas: started, ...(redisChild === undefined ? {} : { redis: redisChild }), stop };
    if (replicas === 1) return { ...deployment, url: started[0]!.url };
    const dir = mkdtempSync(join(tmpdir(), "rcp-bench-haproxy-"));
    dirs.push(dir);
    const port = await freePort();
    const file = join(dir, "haproxy.cfg");
    writeFileSync(
      file,
      haproxyConfig(
        HAPROXY_CONFIG,
        port,
        started.map((replica) => replica.url),
      ),
    );
    const haproxy = spawnProgram(HAPROXY, ["-db", "-f", file]);
    others.push(haproxy);
    await until(
      () => canConnect(port),
      () => "haproxy did not listen",
    );
    return { ...deployment, haproxy, url: `http://127.0.0.1:${port}/rcp` };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function openSession(url: string): Promise<string> {
  const response = await fetch(`${url}/initialize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: 1, client: { name: "bench", version: "1" } },
    }),
  });
  const answer = (await response.json()) as { result?: { _meta: { session: string } } };
  if (answer.result === undefined) throw new Error(`initialize failed: ${JSON.stringify(answer)}`);
  return answer.result._meta.session;
}

async function measure(
  deployment: Deployment,
  request: { method: string; body: string },
  requests: number,
  warmup: number,
  connections: number,
) {
  const token = await openSession(deployment.url);
  const load = (count: number): Promise<HttpLoadResult> => {
    const config: HttpLoadConfig = {
      target: {
        url: `${deployment.url}/${request.method}`,
        body: request.body,
        headers: { "rcp-session": token },
        idPlaceholder: ID,
      },
      requests: count,
      warmup: 0,
      connections,
      timeoutMs: 30_000 + count * 5,
    };
    return runJsonChild<HttpLoadResult>({
      script: loadScript("http-load"),
      args: [JSON.stringify(config)],
      timeoutMs: config.timeoutMs + 10_000,
    });
  };
  await load(warmup);
  const cpu = async (): Promise<{ replicas: number; haproxy: number; redis: number }> => {
    const probed = await Promise.all(deployment.replicas.map((replica) => replica.probes.probe()));
    return {
      replicas: probed.reduce((sum, report) => sum + report.cpuUserMicros + report.cpuSystemMicros, 0),
      haproxy: deployment.haproxy === undefined ? 0 : procCpuMicros(deployment.haproxy.pid!),
      redis: deployment.redis === undefined ? 0 : procCpuMicros(deployment.redis.pid!),
    };
  };
  const before = await cpu();
  const result = await load(requests);
  const after = await cpu();
  const perRequest = (part: keyof typeof before): number => (after[part] - before[part]) / requests;
  return {
    requestsPerSecond: result.requestsPerSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    cpuMicrosPerRequest: perRequest("replicas") + perRequest("haproxy") + perRequest("redis"),
    clientCpuMicrosPerRequest: result.clientCpuMicrosPerRequest,
    [SPLIT.replicas]: perRequest("replicas"),
    [SPLIT.haproxy]: perRequest("haproxy"),
    [SPLIT.redis]: perRequest("redis"),
  };
}

/** Per-process CPU per request: kept in the samples and given in a note, not as columns of the table. */
const SPLIT = {
  replicas: "replicasCpuMicrosPerRequest",
  haproxy: "haproxyCpuMicrosPerRequest",
  redis: "redisCpuMicrosPerRequest",
} as const;

const DIRECT = "one replica, direct, state in memory";
const SCALED = "3 replicas behind HAProxy, state on Redis";
const LOOKUP_MEMORY = "one replica, one ping at a time, session in memory (no limiter)";
const LOOKUP_REDIS = "one replica, one ping at a time, session on Redis (no limiter)";

/**
 * Four callers keep retrieves going through HAProxy to 3 replicas; once a quarter are answered,
 * one replica is killed. Those in flight on it may fail (HAProxy cannot know whether they ran);
 * one sent after HAProxy has noticed must reach another replica.
 */
async function killUnderLoad(mode: Mode): Promise<{ lost: number; inFlightFailed: number; requests: number }> {
  const deployment = await deploy(3, true);
  try {
    const workers = 4;
    const perWorker = KILL_PHASE_REQUESTS[mode.name];
    const tokens = await Promise.all(Array.from({ length: workers }, () => openSession(deployment.url)));
    let completed = 0;
    let killedAt = Number.POSITIVE_INFINITY;
    const failedAt: number[] = [];
    await Promise.all(
      tokens.map(async (token) => {
        for (let n = 0; n < perWorker; n++) {
          const startedAt = performance.now();
          const ok = await fetch(`${deployment.url}/retrieve`, {
            method: "POST",
            headers: { "content-type": "application/json", "rcp-session": token },
            body: RETRIEVE.body.replace(ID, String(n)),
          }).then(
            async (response) => response.ok && "result" in ((await response.json()) as object),
            () => false,
          );
          if (!ok) failedAt.push(startedAt);
          if (++completed === Math.ceil((workers * perWorker) / 4)) {
            deployment.replicas[1]!.child.kill("SIGKILL");
            killedAt = performance.now();
          }
        }
      }),
    );
    const lost = failedAt.filter((startedAt) => startedAt > killedAt + KILL_NOTICED_MS).length;
    return { lost, inFlightFailed: failedAt.length - lost, requests: workers * perWorker };
  } finally {
    await deployment.stop();
  }
}

export async function scaleOutScenario(mode: Mode): Promise<ScenarioReport> {
  const noLimiter: Record<string, string> = { BENCH_RATE_LIMIT: "0" };
  const lookups = LOOKUP_REQUESTS[mode.name];
  const contenders = [
    {
      label: DIRECT,
      reportedOnly: true,
      replicas: 1,
      redis: false,
      env: {},
      request: RETRIEVE,
      connections: mode.http.connections,
      requests: RETRIEVE_REQUESTS[mode.name],
    },
    {
      label: SCALED,
      reportedOnly: true,
      replicas: 3,
      redis: true,
      env: {},
      request: RETRIEVE,
      connections: mode.http.connections,
      requests: RETRIEVE_REQUESTS[mode.name],
    },
    {
      label: LOOKUP_MEMORY,
      replicas: 1,
      redis: false,
      env: noLimiter,
      request: PING,
      connections: 1,
      requests: lookups,
    },
    { label: LOOKUP_REDIS, replicas: 1, redis: true, env: noLimiter, request: PING, connections: 1, requests: lookups },
  ];
  const samples = await alternate(
    mode.rounds,
    contenders,
    async (contender) => {
      const deployment = await deploy(contender.replicas, contender.redis, contender.env);
      try {
        // Every replica warms up (JIT) as much as the one direct replica does.
        const warmup = Math.max(mode.http.warmup, Math.ceil(contender.requests / 5)) * contender.replicas;
        return await measure(deployment, contender.request, contender.requests, warmup, contender.connections);
      } finally {
        await deployment.stop();
      }
    },
    mode.reportedRounds,
  );
  const { rows, metric } = medianTable(contenders, samples);
  const splitNames: readonly string[] = Object.values(SPLIT);
  const shownRows = rows.map(({ label, metrics }) => ({
    label,
    metrics: Object.fromEntries(Object.entries(metrics).filter(([name]) => !splitNames.includes(name))),
  }));
  const split = (label: string, parts: ReadonlyArray<keyof typeof SPLIT>): string =>
    parts.map((part) => `${part} ${metric(label, SPLIT[part]).toFixed(0)}`).join(", ");
  const cpu = (label: string): number => metric(label, "cpuMicrosPerRequest");
  const addedLookupMs = metric(LOOKUP_REDIS, "p50Ms") - metric(LOOKUP_MEMORY, "p50Ms");
  const killed = await killUnderLoad(mode);
  const targets: Target[] = [
    {
      name: `requests lost after a replica was killed under load that HAProxy could retry (sent ${KILL_NOTICED_MS} ms on)`,
      measured: killed.lost,
      threshold: 0,
      kind: "max",
      unit: "",
    },
    {
      name: "p50 added by a session lookup on Redis (one round trip, loopback)",
      measured: addedLookupMs,
      threshold: 0.5,
      kind: "max",
      unit: "ms",
    },
  ];
  return {
    id: "13",
    title: `scale-out: ${RETRIEVE_REQUESTS[mode.name]} stateful retrieves of the demo engine over ${mode.http.connections} connections, median of ${mode.rounds} rounds`,
    rows: shownRows,
    targets,
    samples: Object.fromEntries(samples),
    notes: [
      ...reportedOnlyNotes(contenders, mode.rounds, mode.reportedRounds),
      `reported, not gated: CPU per request summed over every process, scaled out / one replica direct: ${ratio(cpu(SCALED), cpu(DIRECT)).toFixed(2)}x`,
      `replica killed under load: ${killed.requests} retrieves from 4 callers, ${killed.inFlightFailed} failed in flight on it, ${killed.lost} lost after`,
      `throughput, scaled out / direct: ${ratio(metric(SCALED, "requestsPerSecond"), metric(DIRECT, "requestsPerSecond")).toFixed(2)}x (reported, not a target: on 2 cores five processes share the CPU one process had)`,
      "scaled-out CPU sums the three replicas (self-reported) and HAProxy and Redis (/proc, 10 ms ticks); both sides run a per-caller rate limit",
      `CPU per request by process (µs, medians), scaled out: ${split(SCALED, ["replicas", "haproxy", "redis"])}; direct: ${split(DIRECT, ["replicas"])}`,
      `CPU per request by process (µs, medians), one ping at a time on Redis: ${split(LOOKUP_REDIS, ["replicas", "redis"])}; in memory: ${split(LOOKUP_MEMORY, ["replicas"])}`,
    ],
  };
}
