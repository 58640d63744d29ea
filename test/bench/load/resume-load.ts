/**
 * Load generator for scenario 17's reconnect figure (a process of its own): the generated HTTP
 * client, resuming on its own, calls a streaming retrieve through a proxy that cuts every
 * response right after its first event with an id (test/resume/cutting-proxy.ts), so each
 * reconnect delivers one missed frame and is cut again. For each cut it measures the time to
 * the first frame the client read after its reconnect began: the backoff wait, the resume
 * request, and the replay of the first missed frame. One round trip on the same path (a `ping`
 * through the proxy, which it never cuts: a JSON answer has no id'd event) is measured first.
 */
import { connectHttp } from "../../../generated/index.js";
import { cuttingProxy } from "../../resume/cutting-proxy.js";
import { RETRIEVE_PARAMS } from "../fixture.js";
import { percentile } from "../stats.js";
import { loadConfig, reportResult } from "./main.js";

export interface ResumeLoadConfig {
  /** The server's RCP base URL; it must offer resumable streams and stream each retrieve. */
  url: string;
  calls: number;
  pings: number;
  /** The client's first backoff step (`resume.initialDelayMs`). */
  initialDelayMs: number;
  timeoutMs: number;
}

export interface ResumeLoadResult {
  cuts: number;
  /** Cut to the first missed frame read after the reconnect. */
  firstMissedP50Ms: number;
  firstMissedP99Ms: number;
  firstMissedMaxMs: number;
  /** A ping's round trip through the proxy, median. */
  roundTripP50Ms: number;
}

const config = loadConfig<ResumeLoadConfig>();

await reportResult("resume-load", config.timeoutMs, async (): Promise<ResumeLoadResult> => {
  const cuts: number[] = [];
  const reconnects: number[] = [];
  const reads: number[] = [];
  const proxy = await cuttingProxy(config.url, { chance: 1, span: 0, onCut: () => cuts.push(performance.now()) });
  const client = await connectHttp({
    clientInfo: { name: "resume-load", version: "1" },
    transport: {
      url: proxy.url,
      resume: {
        initialDelayMs: config.initialDelayMs,
        maxAttempts: 10,
        onReconnect: () => void reconnects.push(performance.now()),
      },
    },
  });
  try {
    const roundTrips: number[] = [];
    for (let ping = 0; ping < config.pings; ping++) {
      const started = performance.now();
      await client.ping();
      roundTrips.push(performance.now() - started);
    }
    for (let call = 0; call < config.calls; call++) {
      await client.retrieve(RETRIEVE_PARAMS, { onProgress: () => void reads.push(performance.now()) });
      // The final response is a frame too: it may be the first one a reconnect delivers.
      reads.push(performance.now());
    }
    const delays = cuts.flatMap((cutAt) => {
      const reconnectAt = reconnects.find((at) => at > cutAt);
      const readAt = reconnectAt === undefined ? undefined : reads.find((at) => at > reconnectAt);
      return readAt === undefined ? [] : [readAt - cutAt];
    });
    return {
      cuts: delays.length,
      firstMissedP50Ms: percentile(delays, 50),
      firstMissedP99Ms: percentile(delays, 99),
      firstMissedMaxMs: percentile(delays, 100),
      roundTripP50Ms: percentile(roundTrips, 50),
    };
  } finally {
    await client.close();
    await proxy.close();
  }
});
