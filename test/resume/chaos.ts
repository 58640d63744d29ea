/**
 * Streaming calls through the cutting proxy (./cutting-proxy.ts) with the generated client's
 * resumption on: each call must get its result once, each progress frame once and in order, and
 * no handler may run twice. Shared by the suite (test/resume/client.test.ts) and `npm run fuzz`.
 */
import { BaseClient } from "../../runtime/src/client/base-client.js";
import { httpClientTransport } from "../../runtime/src/client/http-transport.js";
import type { MethodMap } from "../../runtime/src/protocol/types.js";
import { testProtocol } from "../fixtures/test-protocol.js";
import { cuttingProxy } from "./cutting-proxy.js";
import { startServer } from "./peers.js";

/** The methods the resumable-stream clients call: `x-test/stream` of ./peers.ts. */
export interface StreamMethods extends MethodMap {
  initialize: { params: Record<string, unknown>; result: Record<string, unknown>; partial: never };
  "x-test/stream": { params: { steps: number; ms: number }; result: { steps: number }; partial: { step: number } };
}

export interface ChaosOutcome {
  readonly calls: number;
  readonly cuts: number;
  readonly reconnects: number;
  /** One line per broken promise: a call without its result, a frame twice or out of order, a handler run twice. */
  readonly faults: string[];
}

/** Where the calls go: a server and how many times each of its handlers ran, by request id. */
export interface ChaosTarget {
  readonly url: string;
  runs(): ReadonlyMap<string, number>;
}

/** `calls` streaming calls through a cutting proxy in front of `target` (default: a fresh in-memory server). */
export async function chaos({
  calls,
  concurrency = 10,
  target,
}: {
  calls: number;
  concurrency?: number;
  target?: ChaosTarget;
}): Promise<ChaosOutcome> {
  // Every call from this one client is resumable: its streams are not bounded by the per-caller default.
  const server =
    target === undefined
      ? await startServer({
          resumable: { graceMs: 2000, retryMs: 5, ttlMs: 10_000, maxStreamsPerCaller: calls, maxStreams: calls },
        })
      : undefined;
  const url = target?.url ?? server!.url;
  const runs = (): ReadonlyMap<string, number> => target?.runs() ?? server!.log.runs;
  const proxy = await cuttingProxy(url);
  let reconnects = 0;
  const client = new BaseClient<StreamMethods>({
    protocol: testProtocol,
    transport: httpClientTransport({
      url: proxy.url,
      resume: { maxAttempts: 10, initialDelayMs: 2, maxDelayMs: 20, onReconnect: () => void reconnects++ },
    }),
    clientInfo: { name: "chaos", version: "1" },
    capabilities: { streaming: {} },
  });
  const faults: string[] = [];
  try {
    await client.connect();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls) {
        const index = next++;
        const steps = 2 + (index % 9);
        const seen: number[] = [];
        try {
          const result = await client.call(
            "x-test/stream",
            { steps, ms: 1 },
            { onProgress: (event) => void seen.push((event.partial as { step: number }).step) },
          );
          if (result.steps !== steps) faults.push(`call ${index}: result ${JSON.stringify(result)}`);
        } catch (error) {
          faults.push(`call ${index}: ${(error as Error).message}`);
        }
        const expected = Array.from({ length: steps }, (_, step) => step + 1);
        if (seen.join() !== expected.join()) faults.push(`call ${index}: progress ${seen.join()}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const ran = runs();
    for (const [id, times] of ran) if (times !== 1) faults.push(`request ${id} ran ${times} times`);
    if (ran.size !== calls) faults.push(`${ran.size} handlers ran for ${calls} calls`);
    return { calls, cuts: proxy.cuts, reconnects, faults };
  } finally {
    await client.close();
    await proxy.close();
    await server?.close();
  }
}
