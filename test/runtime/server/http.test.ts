/** HTTP transport (§5.2): status table, routing, auth, CORS and sessions, against the fixture server on 127.0.0.1. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameOf, post, rpc, startHttpChild, type HttpChild } from "./helpers/http-child.js";
import type { Frame } from "./helpers/stdio-child.js";

/** The members of an initialize result these tests read. */
interface Initialized {
  _meta: { conformance: string; session: string };
}

let server: HttpChild;
let origin: string;
beforeAll(async () => {
  server = await startHttpChild({
    limits: { maxMessageBytes: 512 },
    http: { cors: { origins: ["https://app.example"] } },
  });
  origin = new URL(server.url).origin;
});
afterAll(() => server.stop());

describe("stateless HTTP (§5.2)", () => {
  it("POST <base>/<method> answers 200 application/json; every request is implicitly initialized", async () => {
    const response = await post(`${server.url}/retrieve`, rpc(1, "retrieve", { query: "q", k: 99 }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: 1, result: { hits: [], params: { k: 50 } } });
  });

  it("a JSON-RPC error is still HTTP 200; unadvertised methods are -32003", async () => {
    const response = await post(`${server.url}/graph`, rpc(2, "graph"));
    expect(response.status).toBe(200);
    expect((await frameOf(response)).error.code).toBe(-32003);
  });

  it("initialize and info are idempotent", async () => {
    const init = { protocolVersion: 1, client: { name: "t", version: "1" } };
    const first = await frameOf<Initialized>(await post(`${server.url}/initialize`, rpc(1, "initialize", init)));
    const second = await frameOf<Initialized>(await post(`${server.url}/initialize`, rpc(2, "initialize", init)));
    expect(second.result).toEqual(first.result);
    expect(first.result._meta.conformance).toBe("L1");
  });

  it("a path naming another method than the body is -32600 (HTTP 200)", async () => {
    const response = await post(`${server.url}/ping`, rpc(3, "info"));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32600 } });
  });

  it("an unparseable body is 400 with -32700", async () => {
    const response = await post(`${server.url}/ping`, "{nope");
    expect(response.status).toBe(400);
    expect((await frameOf(response)).error).toMatchObject({ code: -32700 });
  });

  it("an unknown path is 404, a non-POST verb 405", async () => {
    expect((await post(`${origin}/elsewhere/ping`, rpc(1, "ping"))).status).toBe(404);
    const get = await fetch(`${server.url}/ping`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("a notification is 204 with no body", async () => {
    const response = await post(
      `${server.url}/notifications/cancel`,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 1 } }),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("content-length")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("a whole answer states its Content-Length and goes out unchunked, errors included", async () => {
    for (const [path, body] of [
      ["retrieve", rpc(1, "retrieve", { query: "naïve café", k: 3 })],
      ["graph", rpc(2, "graph")],
      ["ping", "{not json"],
    ] as const) {
      const response = await post(`${server.url}/${path}`, body);
      const text = await response.text();
      expect(response.headers.get("transfer-encoding"), path).toBeNull();
      expect(response.headers.get("content-length"), path).toBe(String(Buffer.byteLength(text)));
    }
  });

  it("§15.5 a body above the limit is 413 with -32013", async () => {
    const response = await post(`${server.url}/ping`, rpc(4, "ping", { nonce: "x".repeat(2000) }));
    expect(response.status).toBe(413);
    expect((await frameOf(response)).error.code).toBe(-32013);
  });

  it("§11 a batch posted to the base path gets an array", async () => {
    const response = await post(server.url, `[${rpc("a", "ping", { nonce: 1 })},${rpc("b", "no/such")}]`);
    const body = (await response.json()) as Frame[];
    expect(body.find((m) => m.id === "a")!.result).toEqual({ nonce: 1 });
    expect(body.find((m) => m.id === "b")!.error.code).toBe(-32004);
  });

  it("CORS: an allowed origin's OPTIONS preflight, and Access-Control-Allow-Origin on its responses", async () => {
    const origin = { origin: "https://app.example" };
    const preflight = await fetch(`${server.url}/retrieve`, { method: "OPTIONS", headers: origin });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("rcp-session");
    const response = await post(`${server.url}/ping`, rpc(1, "ping"), origin);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect((await post(`${server.url}/ping`, rpc(1, "ping"))).headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("authentication (§5.2)", () => {
  it("the authenticate hook runs before dispatch, even before initialize: 401 with -32012", async () => {
    const guarded = await startHttpChild({ http: { bearer: "s3cret" } });
    try {
      const denied = await post(`${guarded.url}/info`, rpc(1, "info"));
      expect(denied.status).toBe(401);
      expect((await frameOf(denied)).error.code).toBe(-32012);
      const allowed = await post(`${guarded.url}/info`, rpc(2, "info"), { authorization: "Bearer s3cret" });
      expect(allowed.status).toBe(200);
    } finally {
      guarded.stop();
    }
  });
});

describe("stateful HTTP sessions (§5.2, §13)", () => {
  it("initialize issues a token in result._meta.session; the RCP-Session header carries the session and §7.14 cancel", async () => {
    const stateful = await startHttpChild({ http: { sessions: "stateful" } });
    try {
      const call = async (method: string, params: object, session?: string) =>
        frameOf(
          await post(`${stateful.url}/${method}`, rpc(1, method, params), session ? { "RCP-Session": session } : {}),
        );
      expect((await call("retrieve", { query: "q" })).error.code).toBe(-32001);
      const initialized = await post(`${stateful.url}/initialize`, rpc(1, "initialize", { protocolVersion: 1 }));
      const token = (await frameOf<Initialized>(initialized)).result._meta.session;
      expect(token).toMatch(/\S{16,}/);
      expect(initialized.headers.get("rcp-session")).toBe(token);
      expect((await call("retrieve", { query: "q" }, token)).result.hits).toEqual([]);
      expect((await call("initialize", { protocolVersion: 1 }, token)).error.code).toBe(-32600);
      const hanging = call("x-test/hang", {}, token);
      // Let the hanging request reach the server before cancelling it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const cancel = JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancel", params: { id: 1 } });
      expect((await post(`${stateful.url}/notifications/cancel`, cancel, { "RCP-Session": token })).status).toBe(204);
      expect((await hanging).error.code).toBe(-32006);
      expect((await call("shutdown", {}, token)).result).toEqual({});
      expect((await call("retrieve", { query: "q" }, token)).error.code).toBe(-32001);
    } finally {
      stateful.stop();
    }
  });
});
