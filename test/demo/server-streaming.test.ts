/** Progress with partial hits, logs, cancellation and deadlines of a slow retrieve (§9, §7.14, §13.1, §17.1). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogMessage, ProgressEvent } from "../../runtime/src/protocol/types.js";
import type { RcpClient, RetrievePartial } from "../../generated/index.js";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { connectDemo } from "./demo-child.js";
import { rcpRejection } from "./rcp-rejection.js";

let client: RcpClient;
beforeAll(async () => {
  client = await connectDemo();
});
afterAll(() => client.close());

const PIPELINE = {
  query: "db transactions and neural networks",
  k: 4,
  rewrite: "decompose",
  rerank: { method: "cross-encoder" },
  mmr: { lambda: 0.6 },
} as const;

describe("streamed progress (§9)", () => {
  it("reports every stage in order with its leading hits, then the authoritative result", async () => {
    const events: Array<ProgressEvent<RetrievePartial>> = [];
    const logs: LogMessage[] = [];
    const result = await client.retrieve(PIPELINE, {
      onProgress: (event) => events.push(event),
      onLog: (log) => logs.push(log),
      logLevel: "info",
    });
    expect(events.map((event) => event.stage)).toEqual(["transform", "recall", "fuse", "rerank", "mmr"]);
    const progress = events.map((event) => event.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    for (const event of events.slice(1)) expect(event.partial?.hits?.length).toBe(4);
    expect(events.at(-1)!.partial!.hits!.map((hit) => hit.id)).toEqual(result.hits.map((hit) => hit.id));
    expect(result.rewrittenQuery).toBe("database transactions | neural networks");
    expect(logs.map((log) => (log.data as { stage: string }).stage)).toEqual([
      "transform",
      "recall",
      "fuse",
      "rerank",
      "mmr",
    ]);
  });
});

describe("cancellation and deadlines (§7.14, §13.1)", () => {
  it("cancels a slow retrieve after its first progress frame with -32006, and keeps serving", async () => {
    const controller = new AbortController();
    const error = await rcpRejection(() =>
      client.retrieve(PIPELINE, {
        signal: controller.signal,
        meta: { [STAGE_DELAY_META_KEY]: 300 },
        onProgress: () => controller.abort(),
      }),
    );
    // Uncancelled, five 300 ms stages would end in a result; -32006 proves the pipeline stopped.
    expect(error.code).toBe(-32006);
    expect((await client.retrieve({ query: "galaxy", k: 1 })).hits).toHaveLength(1);
  });

  it("answers -32014 when the request's own deadline elapses mid-pipeline", async () => {
    const error = await rcpRejection(() =>
      client.retrieve({ query: "galaxy", k: 2 }, { meta: { [STAGE_DELAY_META_KEY]: 2_000, deadlineMs: 150 } }),
    );
    expect(error.code).toBe(-32014);
  });

  it("rejects a malformed delay hint with -32602 naming it", async () => {
    const error = await rcpRejection(() =>
      client.retrieve({ query: "galaxy", k: 2 }, { meta: { [STAGE_DELAY_META_KEY]: -5 } }),
    );
    expect(error).toMatchObject({ code: -32602, data: { field: `_meta.${STAGE_DELAY_META_KEY}` } });
  });
});
