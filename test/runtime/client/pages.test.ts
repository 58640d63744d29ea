/**
 * Generated `<method>Pages()` (§10): a paginated method's result pages, following the cursor
 * until the last one, each page called with the same options. Against the demo engine over
 * stdio, and against in-memory servers that count what they are asked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@rcp-gen/runtime";
import { createServer, RcpClient, type RetrieveResult } from "../../../generated/index.js";
import { connectDemo } from "../../demo/demo-child.js";

const clientInfo = { name: "pages-tests", version: "0.0.0" };

/** Compiled, never run: only paginated methods have Pages. */
export function onlyPaginatedMethods(client: RcpClient): void {
  // @ts-expect-error embed declares no pagination
  void client.embedPages;
  void client.graphPages({ op: "communities" });
}

describe("retrievePages against the demo engine", () => {
  let client: RcpClient;
  beforeAll(async () => (client = await connectDemo()));
  afterAll(() => client?.close());

  it("walks the whole ranking page by page with the same options: nothing skipped, nothing repeated", async () => {
    const request = {
      query: "router packet",
      k: 7,
      candidateK: 40,
      rerank: { method: "cross-encoder" as const, topN: 30 },
    };
    const pages: RetrieveResult[] = [];
    const progressPerPage: number[] = [];
    let progress = 0;
    for await (const page of client.retrievePages(request, { timeout: 10_000, onProgress: () => progress++ })) {
      pages.push(page);
      progressPerPage.push(progress);
      progress = 0;
    }
    expect(pages.map((page) => page.hits.length)).toEqual([7, 7, 7, 7, 2]);
    expect(pages.at(-1)?.nextCursor).toBeUndefined();
    const unpaged = await client.retrieve({ ...request, k: 30 });
    expect(pages.flatMap((page) => page.hits.map((hit) => hit.id))).toEqual(unpaged.hits.map((hit) => hit.id));
    expect(progressPerPage.every((count) => count > 0)).toBe(true);
  });
});

/** A server paging over `ids` two at a time; `cursorAfter` decides each next cursor. */
function pagingServer(ids: string[], cursorAfter: (offset: number) => string | undefined) {
  const cursors: (string | undefined)[] = [];
  const server = createServer({
    info: { name: "pager", version: "1.0.0" },
    conformance: "L0",
    capabilities: { retrieve: {}, pagination: {} },
    handlers: {
      retrieve(params) {
        cursors.push(params.cursor);
        const offset = params.cursor === undefined ? 0 : Number(params.cursor.split(":")[0]);
        const next = cursorAfter(offset + 2);
        const hits = ids.slice(offset, offset + 2).map((id, index) => ({ id, score: 1 - (offset + index) / 10 }));
        return next === undefined ? { hits } : { hits, nextCursor: next };
      },
    },
  });
  return { server, cursors };
}

async function memoryClient(server: ReturnType<typeof createServer>): Promise<RcpClient> {
  const pair = createMemoryTransportPair();
  server.connect(pair.server);
  const client = new RcpClient({ transport: pair.client, clientInfo });
  await client.connect();
  return client;
}

describe("retrievePages's cursor handling", () => {
  it("asks for the next page only when the consumer wants it: a break sends nothing more", async () => {
    const { server, cursors } = pagingServer(["a", "b", "c", "d", "e"], (offset) =>
      offset < 5 ? `${offset}:x` : undefined,
    );
    const client = await memoryClient(server);
    for await (const page of client.retrievePages({ query: "q", k: 2 })) {
      expect(page.hits.map((hit) => hit.id)).toEqual(["a", "b"]);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cursors).toEqual([undefined]);
    const all: string[] = [];
    for await (const page of client.retrievePages({ query: "q", k: 2 }))
      all.push(...page.hits.map((hit) => String(hit.id)));
    expect(all).toEqual(["a", "b", "c", "d", "e"]);
    expect(cursors.slice(1)).toEqual([undefined, "2:x", "4:x"]);
    await client.close();
  });

  it("stops with an error instead of looping when the server hands out a cursor again", async () => {
    const { server } = pagingServer(["a", "b", "c", "d"], () => "2:again");
    const client = await memoryClient(server);
    const seen: string[] = [];
    const walk = async () => {
      for await (const page of client.retrievePages({ query: "q", k: 2 }))
        seen.push(...page.hits.map((hit) => String(hit.id)));
    };
    await expect(walk()).rejects.toMatchObject({
      code: -32603,
      message: "retrieve returned a cursor it had returned before",
      data: { cursor: "2:again" },
    });
    expect(seen).toEqual(["a", "b", "c", "d"]);
    await client.close();
  });
});
