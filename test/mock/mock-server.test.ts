/**
 * createMockServer (rcp-gen/mock) in memory: results made from the schema follow the request as
 * its `x-rcp.results` rules say and validate against the generated validators; streaming calls
 * report their stages; faults come on request; every client frame is checked, and what the
 * client did wrong is recorded with its spec section while the server answers as the spec says.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createMockServer, type MockOptions } from "../../generator/src/mock/index.js";
import { connectMemory, validators, type Meta, type RcpClient } from "../../generated/index.js";
import { RcpError, type MemoryServerEnd } from "../../runtime/src/index.js";
import { repoRoot } from "../generator/run-cli.js";
import { vendorSchemaFolder } from "../fixtures/mock/vendor-folder.js";

const schema = join(repoRoot, "schema");
const examples = join(repoRoot, "test/schema/fixtures/valid");
/** Everything the mock can serve without a store, and a writable index. */
const capabilities = {
  retrieve: { maxK: 50, modes: ["dense", "hybrid"] },
  embed: { dimension: 8, identity: "mock-embedder" },
  sparseEmbed: { identity: "mock-sparse" },
  rerank: { methods: ["cross-encoder"] },
  index: { writable: true },
  streaming: {},
};

function mockClient(options: MockOptions = {}) {
  const mock = createMockServer({ schema, capabilities, ...options });
  return { mock, connect: (): Promise<RcpClient> => connectMemory(mock.server) };
}

/** A raw in-memory connection: frames as the client wrote them, answers as the server wrote them. */
function rawConnection(options: MockOptions = {}) {
  const mock = createMockServer({ schema, capabilities, ...options });
  const received: Record<string, unknown>[] = [];
  let deliver: (text: string) => void = () => {};
  const end: MemoryServerEnd = {
    send: (json) => void received.push(JSON.parse(json) as Record<string, unknown>),
    onMessage: (handler) => (deliver = handler),
    onClose: () => {},
    close: () => {},
  };
  mock.server.connect(end);
  const send = (frame: unknown) => deliver(JSON.stringify(frame));
  const answerTo = async (id: unknown) => {
    for (let tries = 0; tries < 200; tries++) {
      const found = received.find((frame) => frame.id === id);
      if (found !== undefined) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(`no answer to ${String(id)}; received ${JSON.stringify(received)}`);
  };
  const initialize = async () => {
    send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: 1, client: { name: "t", version: "1" } },
    });
    await answerTo("init");
  };
  return { mock, send, answerTo, initialize, received };
}

describe("rcp-gen mock: results from the schema", () => {
  it("retrieve answers exactly k hits ranked by score, and none for k = 0 (§7.7, x-rcp atMost)", async () => {
    const { connect } = mockClient();
    const client = await connect();
    const three = await client.retrieve({ query: "compost", k: 3 });
    expect(validators.retrieveResult(three)).toBe(true);
    expect(three.hits).toHaveLength(3);
    const scores = three.hits.map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect((await client.retrieve({ query: "compost", k: 0 })).hits).toEqual([]);
    // k is clamped to retrieve.maxK by the runtime before the mock shapes the list.
    expect((await client.retrieve({ query: "compost", k: 500 })).hits).toHaveLength(50);
    await client.close();
  });

  it("embed answers one vector per input of the advertised dimension; embed/sparse and rerank one per input (x-rcp onePer, length)", async () => {
    const { connect } = mockClient();
    const client = await connect();
    const embedded = await client.embed({ inputs: ["a", "b", "c"] });
    expect(validators.embedResult(embedded)).toBe(true);
    expect(embedded.vectors.map((vector) => (vector as number[]).length)).toEqual([8, 8, 8]);
    const sparse = await client.embedSparse({ texts: ["a", "b"] });
    expect(validators.embedSparseResult(sparse)).toBe(true);
    expect(sparse.sparse).toHaveLength(2);
    const reranked = await client.rerank({ query: "q", passages: ["x", "y", "z", "w"] });
    expect(validators.rerankResult(reranked)).toBe(true);
    expect(reranked.scores).toHaveLength(4);
    const added = await client.indexAdd({
      documents: [
        { id: "d1", text: "one" },
        { id: "d2", text: "two" },
      ],
    });
    expect(added.ids).toHaveLength(2);
    await client.close();
  });

  it("takes results from the examples folder when it has them, and repeats with the same seed", async () => {
    const fromExamples = await (await mockClient({ examples }).connect()).retrieve({ query: "q", k: 1 });
    expect(fromExamples.hits[0]!.id).toBe("arxiv:1706.03762#3");
    const first = await (await mockClient({ seed: 7 }).connect()).retrieve({ query: "q", k: 2 });
    const again = await (await mockClient({ seed: 7 }).connect()).retrieve({ query: "q", k: 2 });
    const other = await (await mockClient({ seed: 8 }).connect()).retrieve({ query: "q", k: 2 });
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it("streams the stages x-rcp.stages names, with partials that validate, spread over the latency (§9)", async () => {
    const { connect } = mockClient({ latencyMs: 60 });
    const client = await connect();
    const stages: (string | undefined)[] = [];
    const started = performance.now();
    const result = await client.retrieve(
      { query: "q", k: 2 },
      {
        onProgress: (event) => {
          stages.push(event.stage);
          expect(validators.retrievePartial(event.partial)).toBe(true);
        },
      },
    );
    expect(stages).toEqual(["recall", "rerank"]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
    expect(result.hits).toHaveLength(2);
    await client.close();
  });

  it("serves a vendor method of a folder it was never told about, with no code (§6.2)", async () => {
    const folder = vendorSchemaFolder();
    const mock = createMockServer({ schema: folder });
    expect(mock.capabilities["x-acme"]).toEqual({});
    const { BaseClient, createMemoryTransportPair } = await import("../../runtime/src/index.js");
    const pair = createMemoryTransportPair();
    mock.server.connect(pair.server);
    const client = new BaseClient({
      protocol: mock.protocol,
      transport: pair.client,
      clientInfo: { name: "t", version: "1" },
    });
    await client.connect();
    const result = (await client.call("x-acme/summarize", { texts: ["a", "b", "c"] })) as { summaries: string[] };
    expect(result.summaries).toHaveLength(3);
    expect(mock.protocol.methods["x-acme/summarize"]!.result(result)).toBe(true);
    await client.close();
  });
});

describe("rcp-gen mock: faults", () => {
  it('_meta["x-mock"].fail answers that error code', async () => {
    const client = await mockClient().connect();
    const failed = await client
      .retrieve({ query: "q", k: 1, _meta: { "x-mock": { fail: -32014 } } as Meta })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RcpError);
    expect((failed as RcpError).code).toBe(-32014);
    await client.close();
  });

  it("a run's --fail rate fails that share of calls, the same ones for the same seed", async () => {
    const outcomes = async () => {
      const client = await mockClient({
        faults: { fail: [{ method: "retrieve", code: -32011, rate: 0.5 }] },
      }).connect();
      const codes: (number | "ok")[] = [];
      for (let n = 0; n < 20; n++)
        codes.push(
          await client.retrieve({ query: "q", k: 1 }).then(
            () => "ok" as const,
            (error: RcpError) => error.code,
          ),
        );
      await client.close();
      return codes;
    };
    const first = await outcomes();
    expect(first).toContain("ok");
    expect(first).toContain(-32011);
    expect(await outcomes()).toEqual(first);
  });

  it("a stalled call is answered -32006 once cancelled (§7.14)", async () => {
    const client = await mockClient({ faults: { stall: ["retrieve"] } }).connect();
    const controller = new AbortController();
    const call = client.retrieve({ query: "q", k: 1 }, { signal: controller.signal }).catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 30);
    const error = (await call) as RcpError;
    expect(error.code).toBe(-32006);
    await client.close();
  });

  it("dropAfter sends that many progress frames, then the connection goes away", async () => {
    let dropped = false;
    const raw = rawConnection({ onDrop: () => (dropped = true) });
    await raw.initialize();
    raw.send({
      jsonrpc: "2.0",
      id: 2,
      method: "retrieve",
      params: { query: "q", k: 2, _meta: { progressToken: "t", "x-mock": { dropAfter: 1 } } },
    });
    for (let tries = 0; tries < 100 && !dropped; tries++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(dropped).toBe(true);
    const progress = raw.received.filter((frame) => frame.method === "notifications/progress");
    expect(progress).toHaveLength(1);
    expect(raw.received.some((frame) => frame.id === 2)).toBe(false);
  });
});

describe("rcp-gen mock: client checks", () => {
  it("a call before initialize is answered -32001 and recorded with §13", async () => {
    const raw = rawConnection();
    raw.send({ jsonrpc: "2.0", id: 1, method: "retrieve", params: { query: "q", k: 1 } });
    expect(((await raw.answerTo(1)).error as { code: number }).code).toBe(-32001);
    expect(raw.mock.report().violations).toMatchObject([
      { rule: "session.initialize-first", section: "§13", method: "retrieve", id: 1, answer: "error -32001" },
    ]);
  });

  it("params checked as sent: embed/sparse with inputs works (interop alias) but is recorded with §7.4", async () => {
    const raw = rawConnection();
    await raw.initialize();
    raw.send({ jsonrpc: "2.0", id: 2, method: "embed/sparse", params: { inputs: ["a"] } });
    expect((await raw.answerTo(2)).result).toBeDefined();
    expect(raw.mock.report().violations).toMatchObject([
      { rule: "params.schema", section: "§7.4", method: "embed/sparse", answer: "result" },
    ]);
    expect(raw.mock.report().violations[0]!.message).toContain("params.texts: must have required property 'texts'");
  });

  it("an id reused in flight (§4.7), a progress token reused (§9) and a cancel for an unknown id (§7.14) are recorded", async () => {
    const raw = rawConnection({ faults: { stall: ["retrieve"] } });
    await raw.initialize();
    const stalled = { query: "q", k: 1, _meta: { progressToken: "p1" } };
    raw.send({ jsonrpc: "2.0", id: 5, method: "retrieve", params: stalled });
    raw.send({ jsonrpc: "2.0", id: 5, method: "retrieve", params: { query: "q", k: 1 } });
    raw.send({ jsonrpc: "2.0", id: 6, method: "retrieve", params: stalled });
    raw.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 99 } });
    raw.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 5 } });
    raw.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 6 } });
    expect(((await raw.answerTo(5)).error as { code: number }).code).toBe(-32600);
    await raw.answerTo(6);
    // Each is recorded when its message is answered (a cancel at once), so sorted here.
    const rules = raw.mock
      .report()
      .violations.map(({ rule, section }) => [rule, section])
      .sort();
    expect(rules).toEqual([
      ["cancel.unknown-id", "§7.14"],
      ["progress.token-reused", "§9"],
      ["request.id-in-flight", "§4.7"],
    ]);
  });

  it("a well-behaved client leaves the report empty", async () => {
    const { mock, connect } = mockClient();
    const client = await connect();
    await client.retrieve({ query: "q", k: 2 }, { onProgress: () => {} });
    await client.embed({ inputs: ["a"] });
    await client.close();
    expect(mock.report().violations).toEqual([]);
    expect(mock.report().messages).toBeGreaterThanOrEqual(3);
  });
});
