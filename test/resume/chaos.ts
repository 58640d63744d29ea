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

interface StreamMethods extends MethodMap {
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

export async function chaos({
  calls,
  concurrency = 10,
}: {
  calls: number;
  concurrency?: number;
}): Promise<ChaosOutcome> {
  // Every call from this one client is resumable: its streams are not bounded by the per-caller default.
  const server = await startServer({
    resumable: { graceMs: 2000, retryMs: 5, ttlMs: 10_000, maxStreamsPerCaller: calls, maxStreams: calls },
  });
  const proxy = await cuttingProxy(server.url);
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
    for (const [id, runs] of server.log.runs) if (runs !== 1) faults.push(`request ${id} ran ${runs} times`);
    if (server.log.runs.size !== calls) faults.push(`${server.log.runs.size} handlers ran for ${calls} calls`);
    return { calls, cuts: proxy.cuts, reconnects, faults };
  } finally {
    await client.close();
    await proxy.close();
    await server.close();
  }
}
