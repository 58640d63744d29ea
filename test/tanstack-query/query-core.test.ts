/**
 * The `tanstack-query` target's options on @tanstack/query-core in Node, against the demo engine
 * over HTTP: a streamed retrieve's data grows with each progress frame's partial and ends with
 * the result; cancelling the query cancels the call on the server (§7.14); a read method's
 * options fetch its result; a write method's mutation options run it.
 */
import { MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type Meta, type RcpClient } from "../../generated/index.js";
import {
  indexAddMutationOptions,
  retrieveQueryOptions,
  queryTransformQueryOptions,
} from "../../generated/tanstack-query.js";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { listenDemo, type ListeningDemo } from "./demo-server.js";

const PIPELINE = { query: "db transactions and neural networks", k: 4, rerank: { method: "cross-encoder" } } as const;

let demo: ListeningDemo;
let client: RcpClient;
let queryClient: QueryClient;
beforeAll(async () => {
  demo = await listenDemo();
  client = await connectHttp({ clientInfo: { name: "query-core", version: "1.0.0" }, transport: { url: demo.url } });
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterAll(async () => {
  queryClient?.clear();
  await client?.close();
  await demo?.close();
});

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a streamed query (retrieveQueryOptions)", () => {
  it("grows with each progress frame's partial, then ends with the result", async () => {
    const observer = new QueryObserver(queryClient, retrieveQueryOptions(client, PIPELINE));
    const seen: Array<{ partials: number; result: boolean }> = [];
    const unsubscribe = observer.subscribe((state) => {
      if (state.data) seen.push({ partials: state.data.partials.length, result: state.data.result !== undefined });
    });
    await until(
      () => observer.getCurrentResult().fetchStatus === "idle" && observer.getCurrentResult().isSuccess,
      "the result",
    );
    unsubscribe();
    const data = observer.getCurrentResult().data!;
    expect(data.partials.length).toBeGreaterThanOrEqual(2);
    expect(data.result!.hits.map((hit) => hit.id)).toEqual(data.partials.at(-1)!.hits!.map((hit) => hit.id));
    // Partial hits were in the cache before the result was.
    expect(seen.some((state) => state.partials > 0 && !state.result)).toBe(true);
    const counts = seen.map((state) => state.partials);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it("cancels the call on the server when the query is cancelled (§7.14)", async () => {
    const params = { ...PIPELINE, query: "galaxy rotation curves", _meta: { [STAGE_DELAY_META_KEY]: 300 } as Meta };
    const options = retrieveQueryOptions(client, params);
    const observer = new QueryObserver(queryClient, options);
    const unsubscribe = observer.subscribe(() => {});
    await until(() => (observer.getCurrentResult().data?.partials.length ?? 0) > 0, "a first partial");
    await queryClient.cancelQueries({ queryKey: options.queryKey });
    await until(() => demo.aborted.some((call) => call.method === "retrieve"), "the engine to see the cancel");
    unsubscribe();
    expect(demo.aborted.filter((call) => call.method === "retrieve")).toEqual([{ method: "retrieve", code: -32006 }]);
    expect(observer.getCurrentResult().data?.result).toBeUndefined();
  });
});

describe("a streamed query left by its last observer", () => {
  it("cancels the call on the server when the last observer goes away (§7.14)", async () => {
    const before = demo.aborted.length;
    const params = { ...PIPELINE, query: "comet tails", _meta: { [STAGE_DELAY_META_KEY]: 300 } as Meta };
    const observer = new QueryObserver(queryClient, retrieveQueryOptions(client, params));
    const unsubscribe = observer.subscribe(() => {});
    await until(() => (observer.getCurrentResult().data?.partials.length ?? 0) > 0, "a first partial");
    unsubscribe();
    await until(() => demo.aborted.length > before, "the engine to see the cancel");
    expect(demo.aborted.slice(before)).toEqual([{ method: "retrieve", code: -32006 }]);
  });
});

describe("other methods", () => {
  it("fetches a streaming method's result through its options with fetchQuery", async () => {
    const data = await queryClient.fetchQuery(
      queryTransformQueryOptions(client, { query: "db transactions and neural networks", method: "decompose" }),
    );
    expect(data.result?.queries.length).toBeGreaterThan(0);
  });

  it("runs a write through its mutation options", async () => {
    const observer = new MutationObserver(queryClient, indexAddMutationOptions(client));
    const result = await observer.mutate({
      documents: [{ id: "tanstack-1", text: "TanStack Query streams partial hits." }],
    });
    expect(result.ids).toEqual(["tanstack-1"]);
    const found = await client.retrieve({ query: "TanStack partial hits", k: 1 });
    expect(found.hits[0]?.id).toBe("tanstack-1");
  });
});
