/** embed, embed/sparse, rerank, query/transform and index writes through the generated client (§7.3–§7.11). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RcpClient } from "../../generated/index.js";
import { decodeF32Base64 } from "../../runtime/src/codec/f32-base64.js";
import { connectDemo } from "./demo-child.js";
import { rcpRejection } from "./rcp-rejection.js";

let client: RcpClient;
beforeAll(async () => {
  client = await connectDemo();
});
afterAll(() => client.close());

describe("embed (§7.3, §7.3.1)", () => {
  it("f32-base64 vectors decode to exactly the json vectors at float32 precision", async () => {
    const texts = ["galaxy telescope", "sourdough starter", "Schlüssel und Zertifikat"];
    const json = await client.embed({ inputs: texts });
    const binary = await client.embed({ inputs: texts, encoding: "f32-base64" });
    expect(binary).toMatchObject({ encoding: "f32-base64", dimension: 256 });
    binary.vectors.forEach((blob, index) => {
      const decoded = decodeF32Base64(blob as string, binary.dimension!);
      expect(decoded).toEqual((json.vectors[index] as number[]).map((component) => Math.fround(component)));
    });
  });

  it("accepts the legacy `texts` name and text blocks, and refuses an image block as an unadvertised modality", async () => {
    const legacy = await client.embed({ texts: ["galaxy"] });
    const block = await client.embed({ inputs: [{ type: "text", text: "galaxy" }] });
    expect(block.vectors).toEqual(legacy.vectors);
    const image = await rcpRejection(() =>
      client.embed({ inputs: [{ type: "image", mimeType: "image/png", data: "AAAA" }] }),
    );
    expect(image).toMatchObject({ code: -32005, data: { option: "modality", field: "inputs.0" } });
  });

  it("answers -32013 above embed.batchLimit", async () => {
    const error = await rcpRejection(() => client.embed({ inputs: Array.from({ length: 257 }, () => "x") }));
    expect(error).toMatchObject({ code: -32013, data: { field: "inputs" } });
  });
});

describe("embed/sparse, rerank, query/transform (§7.4, §7.6, §7.8)", () => {
  it("embed/sparse returns one sorted term-weight vector per text", async () => {
    const { sparse } = await client.embedSparse({ texts: ["galaxy nebula", ""] });
    expect(sparse).toHaveLength(2);
    expect(sparse[0]!.indices).toHaveLength(2);
    expect(sparse[1]).toEqual({ indices: [], values: [] });
  });

  it("rerank scores passages in input order and gives the best-first order cut to topN", async () => {
    const passages = ["a broth simmers", "the telescope observes a galaxy", "galaxy"];
    const result = await client.rerank({ query: "telescope galaxy", passages, method: "cross-encoder", topN: 2 });
    expect(result.scores).toHaveLength(3);
    expect(result.order).toEqual([1, 2]);
    expect(await rcpRejection(() => client.rerank({ query: "x", passages, method: "colbert" }))).toMatchObject({
      code: -32005,
    });
  });

  it("interop aliases: embed/sparse takes `inputs` for `texts`, rerank `documents` for `passages`; answers stay spec-shaped", async () => {
    // The reference Python and Node clients send `inputs` to embed/sparse (§7.4 says `texts`); servers written
    // for the reference example server send `documents` to rerank (§7.6 says `passages`).
    const texts = ["galaxy nebula", "sourdough"];
    const asInputs = await client.call("embed/sparse", { inputs: texts } as never);
    expect(asInputs).toEqual(await client.embedSparse({ texts }));
    const passages = ["a broth simmers", "the telescope observes a galaxy"];
    const asDocuments = await client.call("rerank", { query: "telescope galaxy", documents: passages } as never);
    expect(asDocuments).toEqual(await client.rerank({ query: "telescope galaxy", passages }));
    expect(Object.keys(asDocuments)).toContain("scores");
  });

  it("query/transform rewrites, fans out and decomposes; unadvertised methods are -32005", async () => {
    expect(await client.queryTransform({ query: "What is a DB index?", method: "rewrite" })).toEqual({
      queries: ["database index"],
    });
    expect(
      (await client.queryTransform({ query: "password network", method: "multi-query", n: 2 })).queries,
    ).toHaveLength(2);
    expect(await client.queryTransform({ query: "compost and sourdough", method: "decompose" })).toEqual({
      queries: ["compost", "sourdough"],
    });
    expect(await rcpRejection(() => client.queryTransform({ query: "x", method: "hyde" }))).toMatchObject({
      code: -32005,
    });
  });
});

describe("index/add and index/delete (§7.10, §7.11)", () => {
  it("upserts by id, mints ids positionally, and deletes idempotently", async () => {
    const added = await client.indexAdd({
      documents: [
        { id: "wombat", text: "wombats dig burrows" },
        { text: "quokkas smile" },
        { id: "wombat", text: "wombats eat grass" },
      ],
    });
    expect(added.ids).toHaveLength(3);
    expect(added.ids[0]).toBe("wombat");
    expect(added.ids[2]).toBe("wombat");
    const minted = added.ids[1]!;
    const found = await client.retrieve({ query: "wombats", k: 5, mode: "sparse" });
    expect(found.hits.map((hit) => [hit.id, hit.text])).toEqual([["wombat", "wombats eat grass"]]);

    expect(await client.indexDelete({ ids: ["wombat", minted, "never-existed"] })).toEqual({ deleted: 2 });
    expect(await client.indexDelete({ ids: ["wombat", minted] })).toEqual({ deleted: 0 });
    expect((await client.retrieve({ query: "wombats quokkas", k: 5, mode: "sparse" })).hits).toEqual([]);
  });

  it("honours _meta.idempotencyKey: a retried id-less add returns the original ids", async () => {
    const documents = [{ text: "a platypus lays eggs" }];
    const first = await client.indexAdd({ documents }, { meta: { idempotencyKey: "platypus-1" } });
    const retry = await client.indexAdd({ documents }, { meta: { idempotencyKey: "platypus-1" } });
    expect(retry.ids).toEqual(first.ids);
    expect((await client.retrieve({ query: "platypus", k: 5, mode: "sparse" })).hits).toHaveLength(1);
    await client.indexDelete({ ids: first.ids });
  });

  it("pins a snapshot across writes and answers -32010 once it has been collected", async () => {
    const before = await client.retrieve({ query: "galaxy", k: 3, mode: "sparse" });
    for (let write = 0; write < 4; write += 1)
      await client.indexAdd({ documents: [{ id: `galaxy-${write}`, text: "galaxy galaxy galaxy" }] });
    const error = await rcpRejection(() =>
      client.retrieve({ query: "galaxy", k: 3, mode: "sparse", indexVersion: before.indexVersion! }),
    );
    expect(error).toMatchObject({ code: -32010, data: { field: "indexVersion" } });
    const latest = await client.retrieve({ query: "galaxy", k: 3, mode: "sparse" });
    const pinned = await client.retrieve({ query: "galaxy", k: 3, mode: "sparse", indexVersion: latest.indexVersion! });
    expect(pinned.hits).toEqual(latest.hits);
  });
});
