/**
 * Load generator for scenario 3 (a process of its own): opens `streams` SSE requests one after
 * another and, for every progress frame, measures the delay from the server's yield (the shared
 * clock reading the server put in `params.message`) to the socket read that delivered it. It also
 * records how many progress frames each read carried: more than one means frames were coalesced.
 */
import { request } from "node:http";
import { percentile } from "../stats.js";
import { loadConfig, reportResult } from "./main.js";
import type { HttpTarget } from "./http-load.js";

export interface SseLoadConfig {
  target: HttpTarget;
  streams: number;
  timeoutMs: number;
}

export interface SseLoadResult {
  frames: number;
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Reads that delivered more than one progress frame. */
  coalescedReads: number;
  /** Smallest gap between the arrivals of two progress frames of one stream. */
  minArrivalGapMs: number;
  /** Frames read only after the server had already yielded the next one: they waited for it. */
  lateFrames: number;
  finalFrames: number;
}

interface StreamRecord {
  delays: number[];
  arrivals: number[];
  yields: number[];
  coalescedReads: number;
  finalFrames: number;
}

const config = loadConfig<SseLoadConfig>();

function readStream(): Promise<StreamRecord> {
  const record: StreamRecord = { delays: [], arrivals: [], yields: [], coalescedReads: 0, finalFrames: 0 };
  const body = Buffer.from(config.target.body);
  // A target may need more in Accept (MCP wants application/json too); it must include the stream.
  const headers = {
    accept: "text/event-stream",
    ...config.target.headers,
    "content-type": "application/json",
    "content-length": String(body.length),
  };
  return new Promise((resolve, reject) => {
    const outgoing = request(config.target.url, { method: "POST", headers }, (response) => {
      if (!String(response.headers["content-type"]).startsWith("text/event-stream")) {
        reject(
          new Error(`not an event stream: HTTP ${response.statusCode} ${String(response.headers["content-type"])}`),
        );
        return;
      }
      let pending = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const receivedAt = performance.timeOrigin + performance.now();
        const events = (pending + chunk).split("\n\n");
        pending = events.pop() ?? "";
        let progressInRead = 0;
        for (const event of events) {
          const data = event
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trimStart())
            .join("\n");
          if (data.length === 0) continue;
          const frame = JSON.parse(data) as { method?: string; params?: { message?: string } };
          if (frame.method === "notifications/progress") {
            progressInRead += 1;
            const yieldedAt = Number(frame.params?.message);
            record.delays.push(receivedAt - yieldedAt);
            record.arrivals.push(receivedAt);
            record.yields.push(yieldedAt);
          } else if ("result" in frame) record.finalFrames += 1;
        }
        if (progressInRead > 1) record.coalescedReads += 1;
      });
      response.on("end", () => resolve(record));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

await reportResult("sse-load", config.timeoutMs, async (): Promise<SseLoadResult> => {
  const records: StreamRecord[] = [];
  for (let stream = 0; stream < config.streams; stream += 1) records.push(await readStream());
  const delays = records.flatMap((record) => record.delays);
  const gaps = records.flatMap((record) =>
    record.arrivals.slice(1).map((at, index) => at - (record.arrivals[index] ?? at)),
  );
  return {
    frames: delays.length,
    delayP50Ms: percentile(delays, 50),
    delayP99Ms: percentile(delays, 99),
    delayMaxMs: percentile(delays, 100),
    coalescedReads: records.reduce((sum, record) => sum + record.coalescedReads, 0),
    minArrivalGapMs: gaps.length > 0 ? Math.min(...gaps) : Number.NaN,
    lateFrames: records.reduce(
      (sum, record) => sum + record.arrivals.filter((at, index) => at > (record.yields[index + 1] ?? Infinity)).length,
      0,
    ),
    finalFrames: records.reduce((sum, record) => sum + record.finalFrames, 0),
  };
});
