/**
 * The demo declares `_meta.conformance: "L2"` (§14). These are the checks behind that claim,
 * as frames on the wire of a real stdio child: every L0 MUST (§14.1), the L1 retrieval
 * surface (§14.2) and the L2 selection it advertises (§14.3).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { rawSession } from "./demo-child.js";

type Frame = Record<string, unknown>;
const INITIALIZE = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: { protocolVersion: 1, client: { name: "wire", version: "1" } },
};
const request = (id: string | number, method: string, params: object = {}): Frame => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});
const byId = (frames: Frame[], id: string | number): Frame | undefined => frames.find((frame) => frame["id"] === id);
const errorCode = (frame: Frame | undefined): unknown => (frame?.["error"] as { code?: unknown } | undefined)?.code;
const hitsOf = (frame: Frame | undefined): Array<Record<string, unknown>> =>
  (frame?.["result"] as { hits: Array<Record<string, unknown>> }).hits;

describe("L0 (§14.1) on the wire", () => {
  let frames: Frame[];
  beforeAll(async () => {
    frames = await rawSession([
      request("early-info", "info"),
      request(1, "ping", { nonce: "n-1" }),
      request("early", "retrieve", { query: "x", k: 1 }),
      INITIALIZE,
      request("unknown", "x-nobody/thing"),
      request("unadvertised", "graph", { op: "local", query: "x" }),
      request("option", "retrieve", { query: "x", k: 1, tokenBudget: 100 }),
      request("malformed", "retrieve", { query: "x", k: -1 }),
      { jsonrpc: "2.0", method: "notifications/unheard-of", params: {} },
      { jsonrpc: "2.0", method: "notifications/cancel", params: { id: "never-sent" } },
      request(7, "retrieve", { query: "galaxy", k: 1, "x-vendor-field": true, _meta: { "x-unknown": 1 } }),
    ]);
  });

  it("answers info and ping before initialize, declaring L2, and echoes the nonce", () => {
    const info = byId(frames, "early-info")!["result"] as { _meta?: { conformance?: string }; capabilities: object };
    expect(info._meta?.conformance).toBe("L2");
    expect(byId(frames, 1)).toEqual({ jsonrpc: "2.0", id: 1, result: { nonce: "n-1" } });
  });

  it("rejects work before initialize (-32001), undefined methods (-32004), unadvertised ones (-32003) and options (-32005)", () => {
    expect(errorCode(byId(frames, "early"))).toBe(-32001);
    expect(errorCode(byId(frames, "unknown"))).toBe(-32004);
    expect(errorCode(byId(frames, "unadvertised"))).toBe(-32003);
    expect(errorCode(byId(frames, "option"))).toBe(-32005);
  });

  it("validates params with -32602 naming the field, answers nothing to notifications, tolerates unknown fields", () => {
    expect(byId(frames, "malformed")!["error"]).toMatchObject({ code: -32602, data: { field: "k" } });
    expect(frames.filter((frame) => frame["id"] === undefined)).toEqual([]);
    expect(hitsOf(byId(frames, 7))).toHaveLength(1);
    expect(frames.map((frame) => frame["id"]).sort()).toEqual(
      [1, 7, "early", "early-info", "init", "malformed", "option", "unadvertised", "unknown"].sort(),
    );
  });
});

describe("L1 (§14.2) and the advertised L2 selection (§14.3) on the wire", () => {
  it("serves dense, sparse and hybrid with filters, citations, consistent scores, k and minScore", async () => {
    const query = { query: "telescope galaxy nebula", k: 5, filter: { field: "lang", op: "eq", value: "en" } };
    const frames = await rawSession([
      INITIALIZE,
      ...(["dense", "sparse", "hybrid"] as const).map((mode) => request(mode, "retrieve", { ...query, mode })),
    ]);
    for (const mode of ["dense", "sparse", "hybrid"]) {
      const hits = hitsOf(byId(frames, mode));
      expect(hits, mode).toHaveLength(5);
      const scores = hits.map((hit) => hit["score"] as number);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const hit of hits) {
        expect(hit["meta"]).toMatchObject({ lang: "en" });
        expect(hit["citation"]).toMatchObject({ source: "demo-corpus", uri: expect.any(String) as unknown });
      }
    }
    const third = hitsOf(byId(frames, "sparse"))[2]!["score"] as number;
    const [, floored] = await rawSession([
      INITIALIZE,
      request("min", "retrieve", { ...query, mode: "sparse", minScore: third }),
    ]);
    expect(hitsOf(floored).map((hit) => hit["id"])).toEqual(
      hitsOf(byId(frames, "sparse"))
        .slice(0, 3)
        .map((hit) => hit["id"]),
    );
  });

  it("streams progress only to a request with a progressToken, and is deterministic", async () => {
    const params = { query: "router packet", k: 3, rerank: { method: "cross-encoder" }, mmr: { lambda: 0.5 } };
    const frames = await rawSession([
      INITIALIZE,
      request("quiet", "retrieve", params),
      request("again", "retrieve", params),
      request("loud", "retrieve", { ...params, _meta: { progressToken: 42 } }),
    ]);
    const progress = frames.filter((frame) => frame["method"] === "notifications/progress");
    expect(progress.map((frame) => (frame["params"] as { progressToken: unknown }).progressToken)).toEqual([
      42, 42, 42, 42,
    ]);
    expect(hitsOf(byId(frames, "again"))).toEqual(hitsOf(byId(frames, "quiet")));
    expect(hitsOf(byId(frames, "loud"))).toEqual(hitsOf(byId(frames, "quiet")));
  });

  it("answers a cancelled slow retrieve with -32006 from the server itself (§7.14)", async () => {
    const frames = await rawSession([
      INITIALIZE,
      request("slow", "retrieve", { query: "galaxy", k: 3, _meta: { [STAGE_DELAY_META_KEY]: 1_000 } }),
      { jsonrpc: "2.0", method: "notifications/cancel", params: { id: "slow", reason: "test" } },
    ]);
    expect(errorCode(byId(frames, "slow"))).toBe(-32006);
  });
});
