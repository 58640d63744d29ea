/**
 * Resumable streams when a replica dies (issue 43, "a replica killed while its handler runs"):
 * three replica processes behind the shipped HAProxy configuration share a real redis-server
 * through `redisEventStore`. A replica SIGKILLed mid-stream leaves its callers with the
 * transport error, bounded by the stream's time to live and the client's attempts, never a hang;
 * the streams on the other replicas run on untouched; and once the time to live has passed
 * nothing of the dead replica's streams is left in Redis. Then a flood of streams that never
 * reconnect stays within the per-caller bound, each stream within `maxFrames`, and all of it
 * expires.
 */
import { describe, expect, it } from "vitest";
import { BaseClient } from "../../runtime/src/client/base-client.js";
import { httpClientTransport } from "../../runtime/src/client/http-transport.js";
import { TransportError } from "../../runtime/src/client/transport.js";
import { testProtocol } from "../fixtures/test-protocol.js";
import { missingBinaries } from "../scale/processes.js";
import type { StreamMethods } from "./chaos.js";
import { eventually, postStream, wait } from "./peers.js";
import { balancedReplicasForFile, type Replica } from "./replicas.js";

const skip = missingBinaries("resumable streams with a replica killed");
if (skip !== undefined) console.log(skip);

const TTL_MS = 1500;
const GRACE_MS = 1000;
const MAX_FRAMES = 10;
const PER_CALLER = 6;
const RESUMABLE = {
  graceMs: GRACE_MS,
  retryMs: 20,
  ttlMs: TTL_MS,
  maxFrames: MAX_FRAMES,
  maxStreamsPerCaller: PER_CALLER,
};
const RESUME = { maxAttempts: 4, initialDelayMs: 20, maxDelayMs: 200 };
/**
 * The longest a caller of the killed replica may wait: its reconnect is served from Redis until
 * the stream expires (noticed within one `XREAD BLOCK` of the Redis store, 1 s), then each
 * attempt waits at most `maxDelayMs`; the rest is slack for a loaded machine.
 */
const FAILED_WITHIN_MS = TTL_MS + 1000 + RESUME.maxAttempts * RESUME.maxDelayMs + 2500;
const PREFIX = `resume-kill:${process.pid}:`;
const CALLS = 6;
const STEPS = 60;
const STEP_MS = 50;

const deployment = balancedReplicasForFile(skip, PREFIX, RESUMABLE);

/** Every key of the test's prefix matching `pattern`, walked with SCAN as `redis-cli --scan` does. */
async function keys(pattern = "*"): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of deployment.client.scanStream({ match: `${PREFIX}${pattern}`, count: 1000 }))
    found.push(...(batch as string[]));
  return found.sort();
}

/** The handler events (`run`, `done`, `abort`) a replica printed. */
const events = (replica: Replica, kind: string): string[] =>
  replica
    .stderr()
    .split("\n")
    .filter((line) => line.startsWith(`${kind} `));

interface Caller {
  readonly client: BaseClient<StreamMethods>;
  readonly seen: number[];
  /** The `Last-Event-ID` of each reconnect. */
  readonly reconnects: string[];
}

function caller(): Caller {
  const reconnects: string[] = [];
  const transport = httpClientTransport({
    url: `${deployment.haproxy.url}/rcp`,
    resume: { ...RESUME, onReconnect: ({ lastEventId }) => void reconnects.push(lastEventId) },
  });
  return {
    client: new BaseClient<StreamMethods>({
      protocol: testProtocol,
      transport,
      clientInfo: { name: "replica-failure", version: "1" },
      capabilities: { streaming: {} },
    }),
    seen: [],
    reconnects,
  };
}

const upTo = (count: number): number[] => Array.from({ length: count }, (_, index) => index + 1);

describe.skipIf(skip !== undefined)("three replicas behind HAProxy sharing Redis, one SIGKILLed", () => {
  it("the killed replica's callers get the transport error within the time to live and their attempts, the others their whole stream", async () => {
    const callers = Array.from({ length: CALLS }, caller);
    // Every initialize first, then every call: round robin then gives each replica two calls.
    await Promise.all(callers.map((one) => one.client.connect()));
    const outcomes = callers.map((one) =>
      one.client
        .call(
          "x-test/stream",
          { steps: STEPS, ms: STEP_MS },
          { onProgress: (event) => void one.seen.push((event.partial as { step: number }).step) },
        )
        .then(
          (result) => ({ result, error: undefined, at: performance.now() }),
          (error: unknown) => ({ result: undefined, error, at: performance.now() }),
        ),
    );
    expect(await eventually(() => callers.every((one) => one.seen.length >= 2))).toBe(true);
    const [victim, ...survivors] = deployment.replicas as [Replica, Replica, Replica];
    const killedCalls = events(victim, "run").length;
    expect(killedCalls).toBeGreaterThan(0);
    const killedAt = performance.now();
    victim.kill();

    // Each of its callers reconnects, and is served from Redis, where its stream still is.
    const cut = (): Caller[] => callers.filter((one) => one.reconnects.length > 0);
    expect(await eventually(() => cut().length === killedCalls)).toBe(true);
    const killedStreams = cut().map((one) => one.reconnects[0]!.split(":")[0]!);
    for (const stream of killedStreams) expect(await keys(`*${stream}*`)).not.toEqual([]);

    const settled = await Promise.all(outcomes);
    settled.forEach((outcome, index) => {
      const { seen, reconnects } = callers[index]!;
      if (reconnects.length > 0) {
        expect(outcome.error).toBeInstanceOf(TransportError);
        expect(outcome.at - killedAt).toBeLessThan(FAILED_WITHIN_MS);
        // What it did see was the stream's start, once and in order.
        expect(seen).toEqual(upTo(seen.length));
      } else {
        expect(outcome.error).toBeUndefined();
        expect(outcome.result).toEqual({ steps: STEPS });
        expect(seen).toEqual(upTo(STEPS));
      }
    });
    expect(settled.filter((outcome) => outcome.error !== undefined)).toHaveLength(killedCalls);
    // The other replicas ran the rest to the end, each once: no request was sent a second time.
    for (const replica of survivors) {
      expect(events(replica, "done")).toEqual(events(replica, "run").map((line) => line.replace("run", "done")));
      expect(events(replica, "abort")).toEqual([]);
    }
    expect(deployment.replicas.reduce((runs, replica) => runs + events(replica, "run").length, 0)).toBe(CALLS);
    await Promise.all(callers.map((one) => one.client.close()));

    // A reader's lease outlives its reader by at most the grace period, the stream by its time to live.
    await wait(Math.max(TTL_MS, GRACE_MS) + 500);
    for (const stream of killedStreams) expect(await keys(`*${stream}*`)).toEqual([]);
    expect(await keys()).toEqual([]);
  }, 30_000);

  it("a flood of streams that never reconnect stays within maxStreamsPerCaller and maxFrames, then expires", async () => {
    const target = deployment.replicas[1]!;
    const opened = [];
    for (let index = 0; index < PER_CALLER * 3; index++)
      opened.push(
        // Cut at its first event (the priming one of a resumable stream), never resumed; each
        // handler runs on for the grace period, writing far more frames than maxFrames.
        await postStream(
          target.url,
          `flood-${index}`,
          { steps: 10_000, ms: 5 },
          { headers: { "x-rcp-resumable": "1" }, until: (text) => /data: [^\n]*\n\n/.test(text) },
        ),
      );
    // Past the caller's bound its requests stream without resumption, and store nothing.
    expect(opened.filter((response) => response.text.includes("\nid: ")).length).toBe(PER_CALLER);
    await wait(GRACE_MS / 2);
    const frames = await keys("stream:*");
    expect(frames).toHaveLength(PER_CALLER);
    // Its owner key beside each; no lease, as nobody reads.
    expect(await keys()).toHaveLength(2 * PER_CALLER);
    const lengths = await Promise.all(frames.map((key) => deployment.client.xlen(key)));
    expect(lengths).toEqual(frames.map(() => MAX_FRAMES));

    // Abandoned after the grace period, then forgotten after the time to live.
    expect(await eventually(() => events(target, "abort").length >= PER_CALLER * 3)).toBe(true);
    await wait(GRACE_MS + TTL_MS);
    expect(await keys()).toEqual([]);
  }, 30_000);
});
