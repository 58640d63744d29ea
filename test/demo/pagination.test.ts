import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import type { RetrieveRequest } from "../../docs/examples/demo-engine/retrieve.js";
import { rcpRejection } from "./rcp-rejection.js";
import { drain } from "./drain.js";

async function allPages(engine: DemoEngine, request: RetrieveRequest): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const { outcome, ids } = await drain(engine, { ...request, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(ids);
    cursor = outcome.nextCursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

describe("§10 cursor pagination", () => {
  it("walks the whole ranking page by page without skipping or repeating a hit", async () => {
    const engine = new DemoEngine();
    const request: RetrieveRequest = {
      query: "router packet",
      k: 7,
      candidateK: 40,
      rerank: { method: "cross-encoder", topN: 30 },
    };
    const pages = await allPages(engine, request);
    const unpaged = await drain(engine, { ...request, k: 30 });
    expect(pages.flat()).toEqual(unpaged.ids);
    expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 7, 2]);
  });

  it("neither skips nor repeats for any page size, mode and query", async () => {
    const engine = new DemoEngine();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 13 }),
        fc.constantFrom("dense" as const, "sparse" as const, "hybrid" as const),
        fc.constantFrom("galaxy", "sourdough broth", "password firewall", "Gitarre Melodie"),
        async (k, mode, query) => {
          const request: RetrieveRequest = { query, k, mode, candidateK: 25 };
          const unpaged = await drain(engine, { ...request, k: 50 });
          expect((await allPages(engine, request)).flat()).toEqual(unpaged.ids);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("keeps paging through the original snapshot while the index changes", async () => {
    const engine = new DemoEngine();
    const request: RetrieveRequest = { query: "galaxy telescope", k: 5, mode: "sparse" };
    const first = await drain(engine, request);
    engine.add([{ id: "new-galaxy", text: "galaxy telescope galaxy telescope" }]);
    engine.delete([first.ids[0]!, "doc-999"]);
    const second = await drain(engine, { ...request, cursor: first.outcome.nextCursor });
    const reference = await drain(engine, { ...request, k: 10, indexVersion: first.outcome.indexVersion });
    expect([...first.ids, ...second.ids]).toEqual(reference.ids);
    expect(second.outcome.indexVersion).toBe(first.outcome.indexVersion);
  });

  it("rejects a cursor reused with another query (-32602) and one whose snapshot was collected (-32015)", async () => {
    const engine = new DemoEngine({ keepSnapshots: 2 });
    const first = await drain(engine, { query: "galaxy", k: 3 });
    const cursor = first.outcome.nextCursor!;
    expect(await rcpRejection(() => drain(engine, { query: "router", k: 3, cursor }))).toMatchObject({
      code: -32602,
      data: { field: "cursor" },
    });
    expect(await rcpRejection(() => drain(engine, { query: "galaxy", k: 3, cursor: "c1.garbage" }))).toMatchObject({
      code: -32602,
    });
    engine.add([{ id: "x1", text: "one" }]);
    engine.add([{ id: "x2", text: "two" }]);
    expect(await rcpRejection(() => drain(engine, { query: "galaxy", k: 3, cursor }))).toMatchObject({
      code: -32015,
      data: { field: "cursor" },
    });
  });

  it("omits nextCursor when k is 0, so a paging client cannot loop forever", async () => {
    const { outcome } = await drain(new DemoEngine(), { query: "galaxy", k: 0 });
    expect(outcome.hits).toEqual([]);
    expect(outcome.nextCursor).toBeUndefined();
  });

  it("omits nextCursor on the last page", async () => {
    const { outcome } = await drain(new DemoEngine(), { query: "galaxy", k: 50, candidateK: 20, mode: "dense" });
    expect(outcome.hits).toHaveLength(20);
    expect(outcome.nextCursor).toBeUndefined();
  });
});
