/**
 * The Orama example engine (docs/examples/orama-engine) as a user runs it: serve.js in a child
 * process over stdio, called through the generated client. Hybrid search streams each Orama
 * search's hits as progress (§9); the §8 filter reaches Orama's `where`, and what Orama cannot
 * express is refused with the spec's code naming the field; writes go through the store
 * (§7.10, §7.11); a cancelled search stops (§7.14).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, type RcpClient, type RetrievePartial } from "../../generated/index.js";
import type { LogMessage, ProgressEvent } from "../../runtime/src/protocol/types.js";
import { startingDocuments } from "../../docs/examples/orama-engine/orama/documents.js";
import { OramaStore } from "../../docs/examples/orama-engine/orama/store.js";
import { SEARCH_DELAY_META_KEY } from "../../docs/examples/orama-engine/server.js";
import { rcpRejection } from "../demo/rcp-rejection.js";
import { ORAMA_SERVE } from "./orama-child.js";

let client: RcpClient;
beforeAll(async () => {
  client = await connectStdio({
    clientInfo: { name: "orama-tests", version: "0.0.0" },
    capabilities: { streaming: {}, log: {} },
    transport: { command: process.execPath, args: [ORAMA_SERVE, "--stdio"], stderr: "pipe" },
  });
});
afterAll(() => client.close());

const ids = (hits: ReadonlyArray<{ id: string | number }>) => hits.map((hit) => hit.id);

describe("hybrid search with progress (§9)", () => {
  it("streams the full-text and the vector search's hits, then Orama's hybrid result", async () => {
    const events: Array<ProgressEvent<RetrievePartial>> = [];
    const logs: LogMessage[] = [];
    const result = await client.retrieve(
      { query: "compost tomato seedlings", k: 3 },
      { onProgress: (event) => events.push(event), onLog: (log) => logs.push(log), logLevel: "info" },
    );
    expect(events.map((event) => [event.stage, event.progress])).toEqual([
      ["sparse", 1 / 3],
      ["dense", 2 / 3],
    ]);
    for (const event of events) expect(event.partial?.hits?.length).toBeGreaterThan(0);
    expect(ids(result.hits)[0]).toBe("doc-1");
    expect(result.hits[0]).toMatchObject({ citation: { source: "orama", title: "Compost for seedlings" } });
    expect(logs.map((log) => (log.data as { stage: string }).stage)).toEqual(["sparse", "dense"]);
  });

  it("runs one search per single mode, and a query without a word matches nothing", async () => {
    const sparse = await client.retrieve({ query: "mulch", k: 5, mode: "sparse" });
    expect(ids(sparse.hits)).toEqual(["doc-4"]);
    const dense = await client.retrieve({ query: "mulch", k: 2, mode: "dense" });
    expect(dense.hits.length).toBeGreaterThan(0);
    expect((await client.retrieve({ query: "?!", k: 5 })).hits).toEqual([]);
  });
});

describe("the §8 filter as Orama's where", () => {
  const filtered = async (filter: object) =>
    ids((await client.retrieve({ query: "tomato soil bed water seedlings", k: 20, mode: "sparse", filter })).hits);

  it("maps each operator on each field, absent fields matching ne and nin", async () => {
    expect(await filtered({ field: "lang", op: "eq", value: "de" })).toEqual([]); // German text, English query
    expect(new Set(await filtered({ field: "year", op: "gte", value: 2024 }))).toEqual(new Set(["doc-5", "doc-9"]));
    expect(await filtered({ field: "tags", op: "contains", value: "tomato" })).toEqual(
      expect.arrayContaining(["doc-1", "doc-3"]),
    );
    expect(await filtered({ field: "tags", op: "contains", value: "tomato" })).toHaveLength(2);
    expect(
      new Set(
        await filtered({
          and: [
            { field: "published", op: "lt", value: "2022-01-01T00:00:00Z" },
            { field: "year", op: "in", value: [2020, 2021] },
          ],
        }),
      ),
    ).toEqual(new Set(["doc-1", "doc-8"]));
    // doc-10 has no lang: it is not "en", so ne and nin keep it.
    expect(await filtered({ field: "lang", op: "ne", value: "en" })).toContain("doc-10");
    expect(await filtered({ field: "lang", op: "nin", value: ["en", "de"] })).toEqual(["doc-10"]);
    expect(await filtered({ not: { field: "tags", op: "in", value: ["soil", "water", "beds"] } })).not.toContain(
      "doc-1",
    );
  });

  it("refuses what Orama cannot express with -32602 naming the field, and exists (not advertised) with -32005", async () => {
    const refused = (filter: object) => rcpRejection(() => client.retrieve({ query: "tomato", k: 3, filter }));
    expect(await refused({ field: "lang", op: "contains", value: "e" })).toMatchObject({
      code: -32602,
      data: { field: "filter.lang" },
    });
    expect(await refused({ or: [{ field: "tags", op: "eq", value: "soil" }] })).toMatchObject({
      code: -32602,
      data: { field: "filter.tags" },
    });
    expect(await refused({ field: "published", op: "gt", value: "last week" })).toMatchObject({
      code: -32602,
      data: { field: "filter.published" },
    });
    expect(await refused({ field: "year", op: "exists", value: true })).toMatchObject({
      code: -32005,
      data: { field: "filter.year" },
    });
  });
});

describe("index/add and index/delete through the store (§7.10, §7.11)", () => {
  it("adds, replaces by id, filters on the new metadata, deletes, and refuses metadata Orama cannot index", async () => {
    const { ids: added } = await client.indexAdd({
      documents: [{ id: "new-1", text: "Marigolds keep aphids from tomato rows.", meta: { tags: ["pests"] } }],
    });
    expect(added).toEqual(["new-1"]);
    const pests = { field: "tags", op: "contains", value: "pests" } as const;
    expect(ids((await client.retrieve({ query: "aphids", k: 3, filter: pests })).hits)).toEqual(["new-1"]);
    await client.indexAdd({ documents: [{ id: "new-1", text: "Nasturtiums lure aphids away.", meta: {} }] });
    expect((await client.retrieve({ query: "aphids", k: 3, filter: pests })).hits).toEqual([]);
    expect(await client.indexDelete({ ids: ["new-1", "new-1", "never-added"] })).toEqual({ deleted: 1 });
    // After a delete, a `not` filter still answers (Orama's not walks every id it ever held).
    expect(
      ids((await client.retrieve({ query: "aphids", k: 3, mode: "sparse", filter: { not: pests } })).hits),
    ).toEqual([]);
    const error = await rcpRejection(() =>
      client.indexAdd({ documents: [{ text: "fine" }, { text: "bad", meta: { year: "2024" } }] }),
    );
    expect(error).toMatchObject({ code: -32602, data: { field: "documents.1.meta.year" } });
    expect((await client.retrieve({ query: "fine", k: 3, mode: "sparse" })).hits).toEqual([]);
  });
});

describe("serve.js --corpus", () => {
  it("starts from the file's documents instead of the gardening notes (the bench loads the demo's 320)", async () => {
    const corpus = fileURLToPath(new URL("../../dist/docs/examples/demo-engine/corpus.json", import.meta.url));
    const other = await connectStdio({
      clientInfo: { name: "orama-tests", version: "0.0.0" },
      transport: { command: process.execPath, args: [ORAMA_SERVE, "--stdio", "--corpus", corpus] },
    });
    try {
      const { hits } = await other.retrieve({
        query: "write-ahead log",
        k: 3,
        mode: "sparse",
        filter: { field: "lang", op: "eq", value: "en" },
      });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) {
        expect(hit.id).toMatch(/^doc-\d{3}$/);
        expect(hit.meta).toMatchObject({ lang: "en" });
      }
    } finally {
      await other.close();
    }
  });
});

describe("cancellation (§7.14)", () => {
  it("answers -32006 to a retrieve cancelled after its first progress frame", async () => {
    const controller = new AbortController();
    const error = await rcpRejection(() =>
      client.retrieve(
        { query: "tomato", k: 2 },
        { signal: controller.signal, meta: { [SEARCH_DELAY_META_KEY]: 300 }, onProgress: () => controller.abort() },
      ),
    );
    expect(error.code).toBe(-32006);
    expect((await client.retrieve({ query: "tomato", k: 1 })).hits).toHaveLength(1);
  });

  it("stops searching once the signal aborts: no search runs after it", async () => {
    const store = await OramaStore.open(startingDocuments);
    const controller = new AbortController();
    let searchesStarted = 0;
    const run = store.retrieve(
      { query: "tomato", k: 2 },
      { signal: controller.signal, beforeStage: () => Promise.resolve(void (searchesStarted += 1)) },
    );
    expect((await run.next()).value).toMatchObject({ stage: "sparse" });
    controller.abort(new Error("cancelled by the test"));
    await expect(run.next()).rejects.toThrow("cancelled by the test");
    // The stage after the abort checked the signal before searching, and nothing ran after it.
    expect(searchesStarted).toBe(2);
    expect(await run.next()).toEqual({ done: true, value: undefined });
  });
});
