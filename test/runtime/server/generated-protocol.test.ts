/** The runtime driven by the generated RCP/1 descriptor (real schema validators and x-rcp rules), over stdio. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATED_SERVER, StdioChild } from "./helpers/stdio-child.js";

let child: StdioChild;
let nextId = 0;
beforeAll(async () => {
  child = await StdioChild.initialized({}, { capabilities: {}, _meta: { logLevel: "info" } }, GENERATED_SERVER);
});
afterAll(() => child.kill());

const call = (method: string, params: object) => child.request(method, params, ++nextId);

describe("generated RCP/1 descriptor", () => {
  it("§7.7/§9 retrieve streams progress with the token and its log, then the result; k is clamped to maxK", async () => {
    const id = ++nextId;
    const reply = await child.request("retrieve", { query: "q", k: 500, _meta: { progressToken: "g" } }, id);
    expect(reply.result.hits).toHaveLength(20);
    const notifications = child.frames().filter((frame) => frame.method !== undefined);
    expect(notifications.map((frame) => frame.method)).toEqual(["notifications/progress", "notifications/log"]);
    expect(notifications[0]!.params).toMatchObject({ progressToken: "g", progress: 0.5, stage: "recall" });
    expect(notifications[1]!.params).toEqual({
      level: "info",
      data: { recalled: 20 },
      logger: "pipeline",
      _meta: { progressToken: "g" },
    });
  });

  it("§4.6 an explicit null where the schema lists no null is treated as absent, at any depth", async () => {
    const nulls = { query: "q", k: 2, mode: null, fusion: null, rerank: null, cursor: null, _meta: null };
    expect((await call("retrieve", nulls)).result.hits).toHaveLength(2);
    const metaNulls = { query: "q", k: 2, _meta: { progressToken: null, logLevel: null, deadlineMs: null } };
    expect((await call("retrieve", metaNulls)).result.hits).toHaveLength(2);
    const nested = { query: "q", k: 2, filter: { field: "year", op: "gte", value: 2020, extra: null } };
    expect((await call("retrieve", nested)).result.hits).toHaveLength(2);
    expect((await call("retrieve", { query: null, k: 2 })).error).toMatchObject({
      code: -32602,
      data: { field: "query" },
    });
  });

  it("§12.1 a schema violation names the dotted field", async () => {
    expect((await call("retrieve", { query: "q" })).error).toMatchObject({ code: -32602, data: { field: "k" } });
    expect((await call("retrieve", { query: "q", k: 1.5 })).error).toMatchObject({
      code: -32602,
      data: { field: "k" },
    });
  });

  it("§12 gates, §3.3 funnel and §8 filter rules come from the schema's x-rcp block", async () => {
    expect((await call("retrieve", { query: "q", k: 3, mode: "sparse" })).error).toMatchObject({
      code: -32005,
      data: { option: "mode" },
    });
    expect((await call("retrieve", { query: "q", k: 10, candidateK: 5 })).error).toMatchObject({
      code: -32602,
      data: { field: "k" },
    });
    const filter = { field: "lang", op: "contains", value: "en" };
    expect((await call("retrieve", { query: "q", k: 3, filter })).error).toMatchObject({
      code: -32005,
      data: { value: "contains" },
    });
    const accepted = await call("retrieve", { query: "q", k: 3, filter: { field: "year", op: "gte", value: 2020 } });
    expect(accepted.result.hits).toHaveLength(3);
  });

  it("§7.3 methods the server did not advertise are -32003; undefined ones -32004", async () => {
    expect((await call("embed", { inputs: ["x"] })).error.code).toBe(-32003);
    expect((await call("embed/never", {})).error.code).toBe(-32004);
  });
});
