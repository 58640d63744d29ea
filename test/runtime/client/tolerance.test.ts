/**
 * Liberal in what the client accepts, with a record of it (docs/client.md): the
 * generated RcpClient against scripted servers that break the schema the way the reference
 * implementations do (../shared/reference/rcp-ref/README.md lists them). A malformed
 * capability is set aside instead of failing the handshake, a malformed partial reaches
 * onProgress flagged, a malformed result is delivered and reported; `strict` refuses all three.
 */
import { describe, expect, it } from "vitest";
import type { ReceivedProgress } from "../../../runtime/src/protocol/types.js";
import { httpClientTransport } from "../../../runtime/src/client/http-transport.js";
import type { ClientDiagnostic } from "../../../runtime/src/client/tolerance.js";
import { createMemoryTransportPair } from "../../../runtime/src/message-stream/memory-pair.js";
import { RcpClient } from "../../../generated/client.js";
import { failureOf } from "./peers.js";

type Frame = { id?: number; method: string; params: { _meta?: { progressToken?: string | number } } };
/** Answers one request: the frames to send back (notifications first, then the response). */
type Script = (frame: Frame) => object[];

const capabilities = {
  // The reference Python example server: embed without `identity` (§6 table requires it).
  embed: { dimension: 384, modalities: ["text"] },
  sparseEmbed: { identity: "demo-splade" },
  retrieve: { maxK: 10, modes: ["hybrid"] },
  rerank: { methods: ["cross-encoder"] },
  streaming: {},
};
const initializeResult = { protocolVersion: 1, server: { name: "scripted", version: "1" }, capabilities };
const result = (frame: Frame, value: unknown) => ({ jsonrpc: "2.0", id: frame.id, result: value });
const progress = (frame: Frame, params: object) => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: frame.params._meta?.progressToken, ...params },
});

const scripts: Record<string, Script> = {
  // The reference streaming example: `partial` is an array of ids (§9 says an object).
  retrieve: (frame) => [
    progress(frame, { progress: 0.33, stage: "recall", partial: ["d1", "d2"] }),
    progress(frame, { progress: 0.66, stage: "fuse", partial: { hits: "d1" } }),
    progress(frame, { progress: 0.9, stage: "rerank", partial: { hits: [{ id: "d1", score: 1 }] } }),
    result(frame, { hits: [{ id: "d1", score: 1 }] }),
  ],
  // The reference example server's rerank answers `results` (§7.6 says `scores`).
  rerank: (frame) => [result(frame, { results: [{ index: 0, score: 0.5 }] })],
  "embed/sparse": (frame) => [result(frame, { sparse: [{ indices: [1], values: [0.5] }] })],
};

function scriptedClient(options: { strict?: boolean; capabilities?: object } = {}) {
  const pair = createMemoryTransportPair();
  const initialize: Script = (frame) => [
    result(frame, { ...initializeResult, capabilities: options.capabilities ?? capabilities }),
  ];
  pair.server.onMessage((json) => {
    const frame = JSON.parse(json) as Frame;
    const script = frame.method === "initialize" ? initialize : scripts[frame.method]!;
    if (frame.id !== undefined) for (const reply of script(frame)) pair.server.send(JSON.stringify(reply));
  });
  const diagnostics: ClientDiagnostic[] = [];
  const client = new RcpClient({
    transport: pair.client,
    clientInfo: { name: "tolerance-test", version: "1" },
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    strict: options.strict,
  });
  return { client, diagnostics };
}

describe("a malformed capability is unusable, not the connection (§6)", () => {
  it("embed without identity: supports() is false, embed() fails locally with -32003, the rest works", async () => {
    const { client, diagnostics } = scriptedClient();
    await client.connect();
    expect(client.supports("embed")).toBe(false);
    expect(client.supports("sparseEmbed")).toBe(true);
    expect(client.serverCapabilities).not.toHaveProperty("embed");
    expect(await failureOf(client.embed({ inputs: ["x"] }))).toMatchObject({ code: -32003 });
    expect(await client.embedSparse({ texts: ["x"] })).toEqual({ sparse: [{ indices: [1], values: [0.5] }] });
    expect(diagnostics).toEqual([
      {
        kind: "capability",
        method: "initialize",
        capability: "embed",
        problem: "capabilities.embed: must have required property 'identity'",
        message: expect.stringContaining("treated as not advertised") as unknown,
      },
    ]);
    await client.close();
  });

  it("strict: the same initialize result fails the handshake with -32603 naming the problem", async () => {
    const { client } = scriptedClient({ strict: true });
    expect(await failureOf(client.connect())).toMatchObject({
      code: -32603,
      message: "Malformed initialize result",
      data: { problem: "capabilities.embed: must have required property 'identity'" },
    });
  });
});

describe("a malformed progress partial reaches onProgress, flagged (§9)", () => {
  it("the partial is left out and handed over as malformedPartial; a valid one arrives as partial", async () => {
    const { client, diagnostics } = scriptedClient();
    await client.connect();
    const events: ReceivedProgress[] = [];
    const answer = await client.retrieve({ query: "q", k: 1 }, { onProgress: (event) => events.push(event) });
    expect(answer.hits).toHaveLength(1);
    expect(events).toEqual([
      { progress: 0.33, stage: "recall", malformedPartial: ["d1", "d2"] },
      { progress: 0.66, stage: "fuse", malformedPartial: { hits: "d1" } },
      { progress: 0.9, stage: "rerank", partial: { hits: [{ id: "d1", score: 1 }] } },
    ]);
    // Reported once per kind and method, repeats counted.
    const progressDiagnostics = diagnostics.filter((diagnostic) => diagnostic.kind === "progress");
    expect(progressDiagnostics.map(({ method, problem }) => [method, problem])).toEqual([
      ["retrieve", "params.partial: must be object"],
    ]);
    expect(client.tolerated.filter((deviation) => deviation.kind === "progress")).toMatchObject([
      { method: "retrieve", count: 2 },
    ]);
    await client.close();
  });

  it("strict: the call fails with -32603 at the first malformed frame", async () => {
    const { client } = scriptedClient({ strict: true, capabilities: { retrieve: {}, streaming: {} } });
    await client.connect();
    const error = await failureOf(client.retrieve({ query: "q", k: 1 }, { onProgress: () => {} }));
    expect(error).toMatchObject({ code: -32603, data: { problem: "params.partial: must be object" } });
    await client.close();
  });
});

describe("a malformed result is delivered and reported; strict makes it an error", () => {
  it("rerank answering `results` instead of `scores` resolves as received, with one diagnostic", async () => {
    const { client, diagnostics } = scriptedClient();
    await client.connect();
    const answer = (await client.rerank({ query: "q", passages: ["a"] })) as unknown;
    expect(answer).toEqual({ results: [{ index: 0, score: 0.5 }] });
    expect(diagnostics.at(-1)).toMatchObject({
      kind: "result",
      method: "rerank",
      problem: "result: must have required property 'scores'",
    });
    await client.close();
  });
});

describe("an HTTP server that keeps one session per process (§5.2)", () => {
  // The reference HTTP example servers answer a second client's initialize with -32600.
  const alreadyInitialized = (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const frame = JSON.parse(init?.body as string) as Frame;
    const body =
      frame.method === "initialize"
        ? { jsonrpc: "2.0", id: frame.id, error: { code: -32600, message: "already initialized" } }
        : result(frame, frame.method === "info" ? { ...initializeResult, capabilities: { streaming: {} } } : {});
    return Promise.resolve(new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } }));
  };

  it("a refused initialize falls back to info, which reports the same capabilities (§7.2, §13.2)", async () => {
    const diagnostics: ClientDiagnostic[] = [];
    const client = new RcpClient({
      transport: httpClientTransport({ url: "http://127.0.0.1:1/rcp", fetch: alreadyInitialized }),
      clientInfo: { name: "tolerance-test", version: "1" },
      onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    });
    await client.connect();
    expect(client.supports("streaming")).toBe(true);
    expect(diagnostics).toMatchObject([{ kind: "session", method: "initialize" }]);
    expect(await client.call("ping", {})).toEqual({});
  });

  it("strict: the -32600 stands", async () => {
    const client = new RcpClient({
      transport: httpClientTransport({ url: "http://127.0.0.1:1/rcp", fetch: alreadyInitialized }),
      clientInfo: { name: "tolerance-test", version: "1" },
      strict: true,
    });
    expect(await failureOf(client.connect())).toMatchObject({ code: -32600 });
  });
});
