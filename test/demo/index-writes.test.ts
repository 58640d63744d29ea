import { describe, expect, it } from "vitest";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { RcpError } from "../../runtime/src/protocol/errors.js";
import { drain } from "./drain.js";

describe("§7.10 index/add", () => {
  it("returns ids positionally, mints ids for documents without one, and upserts by id", async () => {
    const engine = new DemoEngine();
    const before = engine.documentCount;
    const { ids } = engine.add([
      { id: "mine", text: "quokka habitat" },
      { text: "wombat burrow" },
      { text: "wombat burrow" },
    ]);
    expect(ids[0]).toBe("mine");
    expect(ids[1]).toMatch(/^minted-/);
    expect(new Set(ids).size).toBe(3); // an id-less retry is a second copy, as §7.10 warns
    expect(engine.documentCount).toBe(before + 3);

    engine.add([{ id: "mine", text: "quokka diet", meta: { year: 2024 } }]);
    expect(engine.documentCount).toBe(before + 3);
    const { ids: found, outcome } = await drain(engine, { query: "quokka", k: 3, mode: "sparse" });
    expect(found).toEqual(["mine"]);
    expect(outcome.hits[0]).toMatchObject({ text: "quokka diet", meta: { year: 2024 }, trust: { level: "community" } });
  });

  it("makes a repeated identical add observationally a single one, snapshot included", () => {
    const engine = new DemoEngine();
    const first = engine.add([{ id: "same", text: "identical body" }]);
    const again = engine.add([{ id: "same", text: "identical body" }]);
    expect(again).toEqual(first);
    expect(
      engine.add([{ id: "doc-001", text: engine.document("doc-001")!.text, meta: engine.document("doc-001")!.meta }])
        .indexVersion,
    ).toBe(first.indexVersion);
  });
});

describe("§7.10 _meta.idempotencyKey", () => {
  it("returns the first result for a repeated key instead of minting a second copy", () => {
    const engine = new DemoEngine();
    const before = engine.documentCount;
    const first = engine.add([{ text: "retried without an id" }], "key-1");
    const retry = engine.add([{ text: "retried without an id" }], "key-1");
    expect(retry.ids).toEqual(first.ids);
    expect(engine.documentCount).toBe(before + 1);
    expect(engine.add([{ text: "retried without an id" }], "key-2").ids).not.toEqual(first.ids);
  });
});

describe("§7.11 index/delete", () => {
  it("counts only what this call removed, so a repeat returns 0 and never errors", () => {
    const engine = new DemoEngine();
    expect(engine.delete(["doc-001", "doc-002", "doc-001", "absent"]).deleted).toBe(2);
    expect(engine.delete(["doc-001", "doc-002"]).deleted).toBe(0);
    expect(engine.document("doc-001")).toBeUndefined();
  });
});

describe("§7.7.1 snapshots", () => {
  it("serves a pinned snapshot exactly, and answers -32010 once it is collected", async () => {
    const engine = new DemoEngine({ keepSnapshots: 3 });
    const pinned = engine.indexVersion;
    const before = await drain(engine, { query: "galaxy", k: 5, mode: "sparse" });
    engine.delete(before.ids.slice(0, 2));
    const latest = await drain(engine, { query: "galaxy", k: 5, mode: "sparse" });
    expect(latest.ids.slice(0, 3)).toEqual(before.ids.slice(2, 5));
    const replay = await drain(engine, { query: "galaxy", k: 5, mode: "sparse", indexVersion: pinned });
    expect(replay.ids).toEqual(before.ids);
    expect(replay.outcome.indexVersion).toBe(pinned);

    engine.add([{ id: "w1", text: "one" }]);
    engine.add([{ id: "w2", text: "two" }]);
    const error = await drain(engine, { query: "galaxy", k: 5, indexVersion: pinned }).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RcpError);
    expect(error).toMatchObject({ code: -32010, data: { field: "indexVersion" } });
  });

  it("never lets a version token name a different corpus, even from another engine with as many writes", async () => {
    const first = new DemoEngine();
    const second = new DemoEngine();
    expect(second.indexVersion).toBe(first.indexVersion); // same shipped corpus, same snapshot
    const { indexVersion } = first.add([{ id: "only-in-first", text: "galaxy" }]);
    second.add([{ id: "only-in-second", text: "galaxy" }]);
    expect(second.indexVersion).not.toBe(indexVersion);
    const error = await drain(second, { query: "galaxy", k: 1, indexVersion }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: -32010 });
  });
});
