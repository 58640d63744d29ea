/** Session rules of §7.1, §13 and §14.1 against the server built from the generated RCP/1 descriptor, over real stdio. */
import { afterEach, describe, expect, it } from "vitest";
import { GENERATED_SERVER, StdioChild } from "./helpers/stdio-child.js";

const children: StdioChild[] = [];
const start = () => {
  const child = new StdioChild({}, GENERATED_SERVER);
  children.push(child);
  return child;
};
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

const init = (protocolVersion: number, extra: object = {}) => ({
  protocolVersion,
  client: { name: "t", version: "1" },
  ...extra,
});

describe("session rules over stdio", () => {
  it("§14.1(1) answers info, ping and shutdown before initialize; ping echoes its nonce", async () => {
    const child = start();
    const info = await child.request("info", {}, 1);
    expect(info.result).toMatchObject({
      protocolVersion: 1,
      server: { name: "generated-fixture" },
      _meta: { conformance: "L1" },
    });
    expect(info.result.capabilities).toHaveProperty("retrieve");
    expect((await child.request("ping", { nonce: "abc" }, 2)).result).toEqual({ nonce: "abc" });
    expect((await child.request("ping", { nonce: 42 }, 3)).result).toEqual({ nonce: 42 });
    expect((await child.request("ping", undefined, 4)).result).toEqual({});
    expect((await child.request("shutdown", {}, 5)).result).toEqual({});
  });

  it("§13 rejects gated and undefined methods before initialize with -32001", async () => {
    const child = start();
    expect((await child.request("retrieve", { query: "q", k: 3 }, 1)).error.code).toBe(-32001);
    expect((await child.request("no/such-method", {}, 2)).error.code).toBe(-32001);
  });

  it("§7.1 negotiates min(client, server) and reports it with _meta.conformance (§14)", async () => {
    const child = start();
    const reply = await child.request("initialize", init(7), 1);
    expect(reply.result).toMatchObject({ protocolVersion: 1, _meta: { conformance: "L1" } });
  });

  it("§13 a failed negotiation (-32002) leaves the session uninitialized and initialize may be retried", async () => {
    const child = new StdioChild({}, GENERATED_SERVER);
    children.push(child);
    const failed = await child.request("initialize", init(0), 1);
    expect(failed.error.code).toBe(-32002);
    expect((await child.request("retrieve", { query: "q", k: 3 }, 2)).error.code).toBe(-32001);
    expect((await child.request("initialize", init(1), 3)).result.protocolVersion).toBe(1);
    expect((await child.request("retrieve", { query: "q", k: 3 }, 4)).result.hits).toHaveLength(3);
  });

  it("§13 a second initialize after a successful one is -32600", async () => {
    const child = await StdioChild.initialized({}, {}, GENERATED_SERVER);
    children.push(child);
    expect((await child.request("initialize", init(1), 2)).error.code).toBe(-32600);
  });

  it("§12 -32004 for an undefined method takes precedence; -32003 for an unadvertised one or a falsy requires path", async () => {
    const child = await StdioChild.initialized({}, {}, GENERATED_SERVER);
    children.push(child);
    expect((await child.request("no/such-method", {}, 1)).error.code).toBe(-32004);
    expect((await child.request("graph", {}, 2)).error.code).toBe(-32003);
    const readOnly = await child.request("index/add", {}, 3);
    expect(readOnly.error.code).toBe(-32003);
    expect(readOnly.error.message).toContain("index.writable");
  });

  it("§7.14 notifications/cancel sent with an id is -32600", async () => {
    const child = await StdioChild.initialized({}, {}, GENERATED_SERVER);
    children.push(child);
    expect((await child.request("notifications/cancel", { id: 9 }, 1)).error.code).toBe(-32600);
  });

  it("§13.2 info reports the same capability set as the session's initialize", async () => {
    const child = start();
    const before = await child.request("info", {}, 1);
    const initialized = await child.request("initialize", init(1), 2);
    const after = await child.request("info", {}, 3);
    expect(initialized.result.capabilities).toEqual(before.result.capabilities);
    expect(after.result.capabilities).toEqual(initialized.result.capabilities);
  });

  it("§4.7 echoes the id with the same JSON type and value", async () => {
    const child = await StdioChild.initialized({}, {}, GENERATED_SERVER);
    children.push(child);
    child.send({ jsonrpc: "2.0", id: "7", method: "ping" });
    child.send({ jsonrpc: "2.0", id: 7, method: "ping" });
    child.send({ jsonrpc: "2.0", id: 1.5, method: "ping" });
    await child.response(1.5);
    expect(child.responsesFor("7")).toHaveLength(1);
    expect(child.responsesFor(7)).toHaveLength(1);
    expect(child.lines().filter((line) => line.includes('"id":"7"'))).toHaveLength(1);
  });

  it("§4.5/§14.1(6) ignores unknown notifications/* and a cancel for an unknown id, answering nothing", async () => {
    const child = await StdioChild.initialized({}, {}, GENERATED_SERVER);
    children.push(child);
    child.send({ jsonrpc: "2.0", method: "notifications/from-the-future", params: { x: 1 } });
    child.send({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: "never-sent" } });
    child.send({ jsonrpc: "2.0", method: "ping", params: {} });
    await child.request("ping", {}, "after");
    expect(child.frames().map((frame) => frame.id)).toEqual(["init", "after"]);
  });

  it("§14.1(7) tolerates unknown fields and unknown _meta keys", async () => {
    const child = await StdioChild.initialized({}, {}, GENERATED_SERVER);
    children.push(child);
    const reply = await child.request(
      "retrieve",
      { query: "q", k: 3, futureField: { a: 1 }, _meta: { "x-vendor/trace": "t" } },
      1,
    );
    expect(reply.result.hits).toHaveLength(3);
  });

  it("§17.1 an invalid initialize _meta.logLevel is -32602 naming the field, leaving the session uninitialized", async () => {
    const child = start();
    const reply = await child.request("initialize", init(1, { _meta: { logLevel: "loud" } }), 1);
    expect(reply.error).toMatchObject({ code: -32602, data: { field: "_meta.logLevel" } });
    expect((await child.request("retrieve", { query: "q", k: 3 }, 2)).error.code).toBe(-32001);
  });
});
