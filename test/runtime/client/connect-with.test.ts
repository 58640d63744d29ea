/**
 * `connectHttpWith(calls, options)`: a client that names the calls it makes (what keeps a browser
 * bundle to their validators, test/web/bundle.test.ts) behaves as connectHttp's for those calls:
 * progress, results checked with the call's own validator (tolerated and reported, or refused
 * when strict), capability gating; the methods it did not name are absent from its type, and
 * reaching one anyway fails locally with -32004 before any I/O. Over `server.fetch`, no socket.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { connectHttp, connectHttpWith, createServer, retrieveCall, type RcpClient } from "../../../generated/index.js";
import type { ClientDiagnostic } from "../../../runtime/src/client/tolerance.js";

let malformed = false;
const server = createServer({
  info: { name: "calls", version: "1" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 5 }, streaming: {} },
  // Off, so the malformed result below reaches the client, whose own check is under test.
  validateResults: false,
  handlers: {
    // eslint-disable-next-line @typescript-eslint/require-await -- a streaming handler, as users write them: an async generator
    async *retrieve(params) {
      yield { progress: 0.5, stage: "recall", partial: { hits: [{ id: "d1", score: 1 }] } };
      if (malformed) return { hits: [{ id: "d1", score: "high" }] } as never;
      const text = typeof params.query === "string" ? params.query : JSON.stringify(params.query);
      return { hits: [{ id: "d1", score: 1, text }] };
    },
  },
});
const transport = {
  url: "http://localhost/rcp",
  fetch: (input: RequestInfo | URL, init?: RequestInit) => server.fetch(new Request(input, init)),
};

describe("connectHttpWith", () => {
  it("streams a named call's progress and result", async () => {
    const client = await connectHttpWith([retrieveCall], { clientInfo: { name: "t", version: "1" }, transport });
    const stages: string[] = [];
    const result = await client.retrieve(
      { query: "q", k: 2 },
      { onProgress: (event) => void stages.push(event.stage!) },
    );
    expect(stages).toEqual(["recall"]);
    expect(result.hits).toEqual([{ id: "d1", score: 1, text: "q" }]);
    expect(client.supports("retrieve.maxK")).toBe(true);
    // Checked when tsc builds the tests: rerank was not named, so the client type has no member for it.
    expectTypeOf(client).toHaveProperty("retrieve");
    expectTypeOf(client).not.toHaveProperty("rerank");
    await client.close();
  });

  it("fails a method it was not given with -32004 before any I/O", async () => {
    const client = await connectHttpWith([retrieveCall], { clientInfo: { name: "t", version: "1" }, transport });
    const untyped = client as unknown as RcpClient;
    await expect(untyped.rerank({ query: "q", passages: ["p"] })).rejects.toMatchObject({ code: -32004 });
    await client.close();
  });

  it("checks the result with the call's own validator, like connectHttp's client", async () => {
    malformed = true;
    try {
      const diagnostics: ClientDiagnostic[] = [];
      const options = {
        clientInfo: { name: "t", version: "1" },
        transport,
        onDiagnostic: (d: ClientDiagnostic) => void diagnostics.push(d),
      };
      const lean = await connectHttpWith([retrieveCall], options);
      const whole = await connectHttp(options);
      for (const client of [lean, whole]) {
        expect((await client.retrieve({ query: "q", k: 2 })).hits[0]!.score).toBe("high");
        expect(client.tolerated).toMatchObject([{ kind: "result", method: "retrieve", count: 1 }]);
      }
      expect(diagnostics.map((diagnostic) => diagnostic.problem)).toEqual([
        "result.hits.0.score: must be number",
        "result.hits.0.score: must be number",
      ]);
      const strict = await connectHttpWith([retrieveCall], { ...options, strict: true });
      await expect(strict.retrieve({ query: "q", k: 2 })).rejects.toMatchObject({ code: -32603 });
      await Promise.all([lean.close(), whole.close(), strict.close()]);
    } finally {
      malformed = false;
    }
  });
});
