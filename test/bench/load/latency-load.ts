/**
 * Load generator for scenario 9 (a process of its own): one keep-alive connection per target,
 * requests one at a time, in cycles of one request to each target: the slowest engine alone
 * (direct) and every process in the federator's place (the middles). All of a round's middles
 * are measured in the same cycles, so drift over the run hits them alike and one direct call
 * serves them all; each cycle starts one target further on, so no middle always follows the
 * same one. Reports the direct p50/p99 and, per middle, its p50/p99 and added latency. Prints
 * one JSON line.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { median, percentile } from "../stats.js";
import { loadConfig, reportResult } from "./main.js";
import type { HttpTarget } from "./http-load.js";

export interface LatencyLoadConfig {
  direct: HttpTarget;
  middles: HttpTarget[];
  /** Measured cycles, after `warmup` unmeasured ones. */
  requests: number;
  warmup: number;
  timeoutMs: number;
}

export interface MiddleLatency {
  federatedP50Ms: number;
  federatedP99Ms: number;
  /** federated p50 - direct p50 */
  addedP50Ms: number;
  /** The median of each cycle's difference to its direct call, a check on the figure above. */
  pairedAddedP50Ms: number;
}

export interface LatencyLoadResult {
  directP50Ms: number;
  directP99Ms: number;
  /** In the order of `config.middles`. */
  middles: MiddleLatency[];
}

const config = loadConfig<LatencyLoadConfig>();

function poster(target: HttpTarget): () => Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.from(target.body);
  const headers = { ...target.headers, "content-type": "application/json", "content-length": String(body.length) };
  return () => {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const outgoing = request(target.url, { method: "POST", agent, headers }, (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => {
          if (response.statusCode !== 200 || !text.includes('"hits"') || text.includes('"degraded"')) {
            reject(new Error(`HTTP ${response.statusCode}: ${text.slice(0, 300)}`));
          } else resolve(performance.now() - started);
        });
      });
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  };
}

/** One request to each target, starting at `first`; each target's time lands at its own index. */
async function cycle(posts: ReadonlyArray<() => Promise<number>>, first: number): Promise<number[]> {
  const times = new Array<number>(posts.length);
  for (let step = 0; step < posts.length; step += 1) {
    const index = (first + step) % posts.length;
    times[index] = await posts[index]!();
  }
  return times;
}

await reportResult("latency-load", config.timeoutMs, async (): Promise<LatencyLoadResult> => {
  // Index 0 is the direct target, then the middles in order.
  const posts = [config.direct, ...config.middles].map(poster);
  for (let index = 0; index < config.warmup; index += 1) await cycle(posts, index);
  const cycles: number[][] = [];
  for (let index = 0; index < config.requests; index += 1) cycles.push(await cycle(posts, index));
  const directMs = cycles.map((times) => times[0]!);
  const directP50Ms = percentile(directMs, 50);
  return {
    directP50Ms,
    directP99Ms: percentile(directMs, 99),
    middles: config.middles.map((_, middle) => {
      const federatedMs = cycles.map((times) => times[middle + 1]!);
      return {
        federatedP50Ms: percentile(federatedMs, 50),
        federatedP99Ms: percentile(federatedMs, 99),
        addedP50Ms: percentile(federatedMs, 50) - directP50Ms,
        pairedAddedP50Ms: median(federatedMs.map((ms, index) => ms - directMs[index]!)),
      };
    }),
  };
});
