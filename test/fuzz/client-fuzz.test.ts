/**
 * Fuzzing the client (§4.7, §9, §13.1): for each call, a scripted transport delivers a
 * generated run of frames — answers to the right id, the wrong id, the id as the wrong JSON
 * type, malformed error objects, progress for its token and for others, junk JSON, batches —
 * then either answers properly or dies. The call must settle once, as the first frame that
 * really answers it says (else as the ending says), frames never throw out of the client,
 * and no timer is left behind. The client stays usable while its transport lives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RequestId } from "../../runtime/src/protocol/types.js";
import { BaseClient } from "../../runtime/src/client/base-client.js";
import {
  TransportError,
  type ClientTransport,
  type ClientTransportSink,
  type OutgoingFrame,
} from "../../runtime/src/client/transport.js";
import { clientTestProtocol, type ClientTestMethods } from "../fixtures/client-test-protocol.js";

/** One frame the fake server sends, built once the request's id and token are known. */
type Emission = (id: RequestId, token: string | undefined) => unknown;

const anyJson = fc.jsonValue({ maxDepth: 2 });
const otherId = fc.oneof(fc.integer({ min: 1000, max: 2000 }), fc.string({ maxLength: 4 }), fc.constant(null));

const emission: fc.Arbitrary<Emission> = fc.oneof(
  anyJson.map((junk) => () => junk),
  anyJson.map((result) => (id: RequestId) => ({ jsonrpc: "2.0", id, result })),
  fc
    .record({
      code: fc.oneof(fc.integer({ min: -32800, max: -32000 }), anyJson),
      message: fc.oneof(fc.string(), anyJson),
    })
    .map((error) => (id: RequestId) => ({ jsonrpc: "2.0", id, error })),
  fc.tuple(otherId, anyJson).map(([id, result]) => () => ({ jsonrpc: "2.0", id, result })),
  anyJson.map((result) => (id: RequestId) => ({ jsonrpc: "2.0", id: String(id), result })),
  fc
    .tuple(fc.oneof(fc.double(), anyJson), fc.boolean())
    .map(([progress, ours]) => (_id: RequestId, token: string | undefined) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: ours ? token : "someone-else", progress },
    })),
  anyJson.map((data) => () => ({ jsonrpc: "2.0", method: "notifications/log", params: { level: "info", data } })),
  anyJson.map((params) => (id: RequestId) => ({ jsonrpc: "2.0", id, method: "search", params })),
);

const script = fc.record({
  before: fc.array(
    fc.oneof(
      emission,
      fc
        .array(emission, { maxLength: 3 })
        .map((batch) => (id: RequestId, token: string | undefined) => batch.map((emit) => emit(id, token))),
    ),
    { maxLength: 8 },
  ),
  ending: fc.constantFrom("answer", "die"),
});

type Script = { before: Emission[]; ending: "answer" | "die" };

/** What the client must make of the frames: the first one that answers the id wins (§4.7). */
function expectedOutcome(
  frames: unknown[],
  id: RequestId,
  ending: Script["ending"],
): { result: unknown } | { code: number | "transport" } {
  for (const frame of frames.flat(Infinity)) {
    if (typeof frame !== "object" || frame === null) continue;
    const message = frame as Record<string, unknown>;
    if (typeof message.method === "string" || message.id !== id) continue;
    if ("error" in message) {
      const error = message.error as { code?: unknown; message?: unknown } | null;
      const wellFormed =
        typeof error === "object" &&
        error !== null &&
        Number.isInteger(error.code) &&
        typeof error.message === "string";
      return { code: wellFormed ? (error.code as number) : -32603 };
    }
    if ("result" in message) return { result: message.result };
  }
  return ending === "answer" ? { result: { proper: true } } : { code: "transport" };
}

/** A transport that answers initialize, then plays one script per `search`. */
class ScriptedTransport implements ClientTransport {
  readonly cancellation = "notification";
  #sink: ClientTransportSink | undefined;
  #scripts: Script[] = [];
  /** Per `search` sent: its id and the frames played before the ending. */
  readonly played: Array<{ id: RequestId; frames: unknown[] }> = [];

  queue(next: Script): void {
    this.#scripts.push(next);
  }

  start(sink: ClientTransportSink): Promise<void> {
    this.#sink = sink;
    return Promise.resolve();
  }

  send(frame: OutgoingFrame): Promise<void> {
    this.#answer(frame);
    return Promise.resolve();
  }

  #answer(frame: OutgoingFrame): void {
    if (!("id" in frame)) return;
    const sink = this.#sink!;
    if (frame.method === "initialize") {
      const result = {
        protocolVersion: 2,
        server: { name: "scripted", version: "0" },
        capabilities: { search: {}, streaming: {} },
      };
      setImmediate(() => sink.receive({ jsonrpc: "2.0", id: frame.id, result }));
      return;
    }
    const { before, ending } = this.#scripts.shift()!;
    const token = (frame.params._meta as { progressToken?: string } | undefined)?.progressToken;
    const frames = before.map((emit) => emit(frame.id, token));
    this.played.push({ id: frame.id, frames });
    setImmediate(() => {
      for (const each of frames) sink.receive(each);
      if (ending === "answer") sink.receive({ jsonrpc: "2.0", id: frame.id, result: { proper: true } });
      else sink.closed(new TransportError("scripted death"));
    });
  }

  async close(): Promise<void> {}
}

const liveTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("fuzzing the client (fast-check, fixed seed)", () => {
  it("each call settles as the first real answer says, with no timer left, whatever else arrives", async () => {
    let calls = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(script, { minLength: 1, maxLength: 6 }), async (scripts) => {
        const transport = new ScriptedTransport();
        const client = new BaseClient<ClientTestMethods>({
          protocol: clientTestProtocol,
          transport,
          clientInfo: { name: "fuzz", version: "0" },
        });
        await client.connect();
        const before = liveTimers();
        for (const next of scripts) {
          transport.queue(next);
          const progress: unknown[] = [];
          const options = { timeout: 10_000, onProgress: (event: unknown) => progress.push(event) };
          const outcome = await client.call("search", { script: "fuzz" }, options).then(
            (result) => ({ result }),
            (error: unknown) => ({
              code: error instanceof TransportError ? ("transport" as const) : (error as { code: number }).code,
            }),
          );
          calls++;
          const { id, frames } = transport.played.at(-1)!;
          expect(outcome).toEqual(expectedOutcome(frames, id, next.ending));
          expect(progress.every((event) => typeof (event as { progress: unknown }).progress === "number")).toBe(true);
          // §13.1 once the transport died, every later call fails at once, without sending.
          if (next.ending === "die") {
            await expect(client.call("search", { script: "after" })).rejects.toBeInstanceOf(TransportError);
            expect(transport.played.at(-1)!.id).toBe(id);
            break;
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
        expect(liveTimers()).toBeLessThanOrEqual(before);
        await client.close();
      }),
      { seed: 20261129, numRuns: 150 },
    );
    expect(calls).toBeGreaterThan(150);
  });
});
