/**
 * Load generator for scenario 8 (a process of its own): one keep-alive connection per target,
 * requests one at a time, alternating direct (the slowest engine) and federated (the
 * federator over all engines), so drift over the run hits both alike. Reports each side's
 * p50/p99 and the federator's added latency. Prints one JSON line.
 */
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { median, percentile } from "../stats.js";
import { loadConfig, reportResult } from "./main.js";
import type { HttpTarget } from "./http-load.js";

export interface LatencyLoadConfig {
  direct: HttpTarget;
  federated: HttpTarget;
  requests: number;
  warmup: number;
  timeoutMs: number;
}

export interface LatencyLoadResult {
  directP50Ms: number;
  directP99Ms: number;
  federatedP50Ms: number;
  federatedP99Ms: number;
  /** federated p50 - direct p50 */
  addedP50Ms: number;
  /** The median of each alternating pair's difference, a check on the figure above. */
  pairedAddedP50Ms: number;
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

await reportResult("latency-load", config.timeoutMs, async (): Promise<LatencyLoadResult> => {
  const direct = poster(config.direct);
  const federated = poster(config.federated);
  for (let index = 0; index < config.warmup; index += 1) {
    await direct();
    await federated();
  }
  const directMs: number[] = [];
  const federatedMs: number[] = [];
  for (let index = 0; index < config.requests; index += 1) {
    directMs.push(await direct());
    federatedMs.push(await federated());
  }
  return {
    directP50Ms: percentile(directMs, 50),
    directP99Ms: percentile(directMs, 99),
    federatedP50Ms: percentile(federatedMs, 50),
    federatedP99Ms: percentile(federatedMs, 99),
    addedP50Ms: percentile(federatedMs, 50) - percentile(directMs, 50),
    pairedAddedP50Ms: median(federatedMs.map((ms, index) => ms - directMs[index]!)),
  };
});
