/**
 * §7.7 `strict: false` with the generated RCP/1 descriptor: an unsupported option is dropped so
 * that the params the handler receives still satisfy the schema (and so its types).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectMemory, createServer, type RcpClient, type RetrieveParams } from "../../../generated/index.js";
import { protocol } from "../../../generated/methods.js";

const received: RetrieveParams[] = [];
let client: RcpClient;

beforeAll(async () => {
  const server = createServer({
    info: { name: "strict-fallback", version: "0.0.0" },
    conformance: "L0",
    capabilities: { retrieve: { maxK: 10, rerankBuiltin: true }, rerank: { methods: ["llm"] } },
    handlers: {
      retrieve: (params, ctx) => {
        received.push(structuredClone(params));
        return { hits: [], usage: { notes: ctx.degraded.map((path) => `dropped ${path}`) } };
      },
      rerank: (params) => ({ scores: params.passages.map(() => 0) }),
    },
  });
  client = await connectMemory(server);
});
afterAll(() => client.close());

describe("§7.7 strict: false", () => {
  it("an unadvertised rerank.method drops rerank as a whole: rerank without its required method breaks the schema", async () => {
    const result = await client.retrieve({ query: "q", k: 3, rerank: { method: "cross-encoder" }, strict: false });
    expect(result.usage?.notes).toEqual(["dropped rerank"]);
    const params = received.at(-1)!;
    expect(params).not.toHaveProperty("rerank");
    expect(protocol.methods.retrieve.params(params)).toBe(true);
  });

  it("an advertised rerank.method is kept, and strict (the default) still refuses the unadvertised one with -32005", async () => {
    await client.retrieve({ query: "q", k: 3, rerank: { method: "llm", topN: 5 }, strict: false });
    expect(received.at(-1)!.rerank).toEqual({ method: "llm", topN: 5 });
    await expect(client.retrieve({ query: "q", k: 3, rerank: { method: "cross-encoder" } })).rejects.toMatchObject({
      code: -32005,
      data: { option: "rerank.method", value: "cross-encoder" },
    });
  });

  it("an option whose parent stays valid without it is dropped alone", async () => {
    const result = await client.retrieve({ query: "q", k: 3, mode: "sparse", strict: false });
    expect(result.usage?.notes).toEqual(["dropped mode"]);
    expect(received.at(-1)).not.toHaveProperty("mode");
  });
});
