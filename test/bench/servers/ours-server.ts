/**
 * Ours: the generated RCP/1 server (generated/server.ts on the runtime) with one retrieve
 * handler, validating params and results with the generated validators as in production.
 * The handler answers at once, holds for a wave (BENCH_HOLD) or streams progress (BENCH_STREAM).
 * BENCH_INTERCEPTORS=n puts n no-op server interceptors around it (what the interceptor path costs).
 * BENCH_RESUMABLE=1 offers resumable streams (docs/resumable-streams.md), in memory, or also in
 * the event store given (servers/ours-http.ts puts them on Redis); BENCH_RESUMABLE_TTL_MS sets
 * their time to live.
 */
import { createServer } from "../../../generated/server.js";
import type { RetrieveParams, RetrievePartial, RetrieveResult } from "../../../generated/types.js";
import type { Handler, Interceptor, ProgressEvent, ServerCall } from "../../../runtime/src/protocol/types.js";
import type { RcpServer } from "../../../runtime/src/codegen/server.js";
import type { EventStore } from "../../../runtime/src/resume/event-store.js";
import { buildRetrieveResult } from "../fixture.js";
import { createHoldGate, installProbe, sharedClockMs, streamPlan } from "./probe.js";

/** Not node:timers/promises: the start-up scenario times this server, and the floor loads no such module. */
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function* streamedRetrieve(
  events: number,
  intervalMs: number,
): AsyncGenerator<ProgressEvent<RetrievePartial>, RetrieveResult, void> {
  for (let event = 1; event <= events; event += 1) {
    await sleep(intervalMs);
    // The shared clock reading taken at the yield is what the client measures its delay from.
    yield { progress: event / events, stage: "bench", message: String(sharedClockMs()) };
  }
  return buildRetrieveResult();
}

function chooseRetrieveHandler(): Handler<RetrieveParams, RetrieveResult, RetrievePartial> {
  const plan = streamPlan();
  if (plan) return () => streamedRetrieve(plan.events, plan.intervalMs);
  const hold = createHoldGate();
  if (hold)
    return async () => {
      await hold();
      return buildRetrieveResult();
    };
  return () => buildRetrieveResult();
}

function ttlMs(): number | undefined {
  const ttl = process.env.BENCH_RESUMABLE_TTL_MS;
  return ttl === undefined ? undefined : Number(ttl);
}

const passThrough: Interceptor<ServerCall> = (next) => (call) => next(call);

export function createOursServer(store?: EventStore): RcpServer {
  installProbe();
  const held = Number(process.env.BENCH_HOLD ?? 0);
  const interceptors = Array.from({ length: Number(process.env.BENCH_INTERCEPTORS ?? 0) }, () => passThrough);
  return createServer({
    info: { name: "bench-ours", version: "1.0.0" },
    capabilities: { retrieve: { maxK: 50, modes: ["dense", "sparse", "hybrid"] }, streaming: {} },
    conformance: "L0",
    // The memory scenario holds a whole wave in flight on one connection.
    limits: held > 0 ? { maxInFlight: held + 1 } : {},
    handlers: { retrieve: chooseRetrieveHandler() },
    interceptors,
    http: { resumable: process.env.BENCH_RESUMABLE === "1" && { store, ttlMs: ttlMs() } },
  });
}
