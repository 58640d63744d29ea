/**
 * Load generator for scenario 2 (a process of its own, apart from the server): `connections`
 * keep-alive sockets (node:http Agent), each running requests back to back until `requests`
 * have been answered after `warmup`. Reports requests/s and p50/p99 latency. Prints one JSON line.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { percentile } from "../stats.js";
import { loadConfig, reportResult } from "./main.js";

export interface HttpTarget {
  /** Absolute URL the POST goes to. */
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Replaced in `body` by a number of its own per request: one session needs ids unique in flight (§4.7). */
  idPlaceholder?: string;
}

export interface HttpLoadConfig {
  target: HttpTarget;
  requests: number;
  warmup: number;
  connections: number;
  timeoutMs: number;
}

export interface HttpLoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  clientCpuMicrosPerRequest: number;
}

const config = loadConfig<HttpLoadConfig>();
const agent = new Agent({ keepAlive: true, maxSockets: config.connections });
const fixedBody = Buffer.from(config.target.body);
const baseHeaders = { ...config.target.headers, "content-type": "application/json" };
const fixedHeaders = { ...baseHeaders, "content-length": String(fixedBody.length) };
let nextId = 0;

function post(): Promise<number> {
  const placeholder = config.target.idPlaceholder;
  let body = fixedBody;
  let headers = fixedHeaders;
  if (placeholder !== undefined) {
    body = Buffer.from(config.target.body.replace(placeholder, String(++nextId)));
    headers = { ...baseHeaders, "content-length": String(body.length) };
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(config.target.url, { method: "POST", agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (
          response.statusCode !== 200 ||
          !text.includes('"result"') ||
          text.includes('"error":') ||
          text.includes('"isError":true')
        ) {
          reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 300)}`));
        } else resolve(performance.now() - started);
      });
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Runs `total` requests over `connections` concurrent workers; returns each latency in ms. */
async function phase(total: number): Promise<number[]> {
  const latencies: number[] = [];
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < total) {
      issued += 1;
      latencies.push(await post());
    }
  };
  await Promise.all(Array.from({ length: config.connections }, worker));
  return latencies;
}

await reportResult("http-load", config.timeoutMs, async (): Promise<HttpLoadResult> => {
  try {
    await phase(config.warmup);
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    const latencies = await phase(config.requests);
    const seconds = (performance.now() - started) / 1000;
    const clientCpu = process.cpuUsage(clientBefore);
    return {
      requests: config.requests,
      seconds,
      requestsPerSecond: config.requests / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      clientCpuMicrosPerRequest: (clientCpu.user + clientCpu.system) / config.requests,
    };
  } finally {
    agent.destroy();
  }
});
