/**
 * What a web page can make an RCP server do (§5.2, §15.1; SECURITY.md "Browsers"). The same
 * raw requests go to the demo engine behind node:http (`listen`, a socket on 127.0.0.1) and
 * behind `server.fetch`: a body not declared JSON is 415 before any handler runs, a foreign
 * Origin is 403, a foreign Host (DNS rebinding) is 403, and the one origin allow-list drives
 * the CORS headers and the preflight. The demo engine's index/delete shows whether a request
 * reached a handler: doc-085 is still found after every refused delete.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRuntime, type RcpServer } from "../../runtime/src/server/create-server-runtime.js";
import { listen, type Listening } from "../../runtime/src/node/index.js";
import type { HttpOptions } from "../../runtime/src/http/options.js";
import { protocol } from "../../generated/methods.js";
import { demoCapabilities } from "../../docs/examples/demo-engine/capabilities.js";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { DEMO_SERVER_INFO, demoHandlers } from "../../docs/examples/demo-engine/server.js";
import type { RetrieveResult } from "../../generated/types.js";
import { parseReply } from "./http-client.js";

interface Reply {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}
interface Target {
  name: string;
  send(path: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Reply>;
}

const APP = "https://app.example";
const http: HttpOptions = {
  cors: { origins: [APP, (origin) => origin.endsWith(".trusted.example")], allowHeaders: ["x-trace"] },
  allowedHosts: [".rcp.example"],
};

function demoServer(options: HttpOptions): RcpServer {
  return createServerRuntime(protocol, {
    info: DEMO_SERVER_INFO,
    capabilities: demoCapabilities(),
    conformance: "L2",
    handlers: { ...demoHandlers(new DemoEngine()) },
    http: options,
  });
}

/** Raw node:http, so Host and Origin are exactly what the test says. */
function socketTarget(listening: Listening): Target {
  const base = new URL(listening.url);
  return {
    name: "node:http (listen)",
    send: (path, { method = "POST", headers = {}, body }) =>
      new Promise((resolve, reject) => {
        const outgoing = request(
          { host: base.hostname, port: base.port, path, method, headers: { connection: "close", ...headers } },
          (response) => {
            let text = "";
            response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
            response.once("end", () =>
              resolve({ status: response.statusCode!, headers: response.headers as Reply["headers"], text }),
            );
          },
        );
        outgoing.once("error", reject);
        outgoing.end(body);
      }),
  };
}

function fetchTarget(server: RcpServer): Target {
  return {
    name: "server.fetch",
    async send(path, { method = "POST", headers = {}, body }) {
      const response = await server.fetch(new Request(`http://127.0.0.1${path}`, { method, headers, body }));
      return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
    },
  };
}

const targets: Target[] = [];
let listening: Listening;
beforeAll(async () => {
  const listened = demoServer(http);
  listening = await listen(listened);
  targets.push(socketTarget(listening), fetchTarget(demoServer(http)));
});
afterAll(() => listening.close());

const json = { "content-type": "application/json" };
const frame = (method: string, params: object) => JSON.stringify({ jsonrpc: "2.0", id: 9, method, params });
const deleteDoc = frame("index/delete", { ids: ["doc-085"] });

/** doc-085 is the demo corpus's best answer to this query (README "The demo engine"). */
async function stillIndexed(target: Target): Promise<boolean> {
  const body = frame("retrieve", { query: "compost for tomatoes", k: 5 });
  const found = await target.send("/rcp/retrieve", { headers: json, body });
  return parseReply<RetrieveResult>(found.text).result.hits.some((hit) => hit.id === "doc-085");
}

describe.each(["node:http (listen)", "server.fetch"])("browser rules behind %s", (name) => {
  const target = () => targets.find((candidate) => candidate.name === name)!;

  it("doc-085 is there to delete", async () => {
    expect(await stillIndexed(target())).toBe(true);
  });

  it("§5.2 a body not declared JSON (the issue's text/plain delete) is 415 with -32600; no handler runs", async () => {
    const notJson: Record<string, string>[] = [
      { "content-type": "text/plain" },
      { "content-type": "application/x-www-form-urlencoded" },
      {},
    ];
    for (const headers of notJson) {
      const reply = await target().send("/rcp/index/delete", { headers, body: deleteDoc });
      expect([headers, reply.status, parseReply(reply.text).error.code]).toEqual([headers, 415, -32600]);
    }
    expect(await stillIndexed(target())).toBe(true);
  });

  it("application/json with parameters and +json types are accepted", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/vnd.rcp+json"]) {
      const reply = await target().send("/rcp/ping", {
        headers: { "content-type": type },
        body: frame("ping", { nonce: 1 }),
      });
      expect([type, reply.status, parseReply(reply.text).result]).toEqual([type, 200, { nonce: 1 }]);
    }
  });

  it("§15.1 an Origin not in http.cors.origins is 403 with -32012 and no CORS headers; no handler runs", async () => {
    const reply = await target().send("/rcp/index/delete", {
      headers: { ...json, origin: "http://evil.example" },
      body: deleteDoc,
    });
    expect([reply.status, parseReply(reply.text).error.code]).toEqual([403, -32012]);
    expect(reply.headers["access-control-allow-origin"]).toBeUndefined();
    expect(await stillIndexed(target())).toBe(true);
  });

  it("an allowed Origin (exact or by predicate) gets its own origin back, Vary: Origin and RCP-Session exposed", async () => {
    for (const origin of [APP, "https://eu.trusted.example"]) {
      const reply = await target().send("/rcp/ping", { headers: { ...json, origin }, body: frame("ping", {}) });
      expect(reply.status).toBe(200);
      expect(reply.headers).toMatchObject({
        "access-control-allow-origin": origin,
        "access-control-expose-headers": "RCP-Session",
        vary: "Origin",
      });
    }
  });

  it("§5.2 preflight: an allowed origin gets 204 with methods, headers and max-age; a foreign one 403", async () => {
    const preflight = { "access-control-request-method": "POST", "access-control-request-headers": "content-type" };
    const allowed = await target().send("/rcp/retrieve", { method: "OPTIONS", headers: { ...preflight, origin: APP } });
    expect(allowed.status).toBe(204);
    expect(allowed.headers).toMatchObject({
      "access-control-allow-origin": APP,
      "access-control-allow-methods": "POST, OPTIONS",
      "access-control-allow-headers": "content-type, accept, authorization, rcp-session, x-trace",
      "access-control-max-age": "600",
    });
    const foreign = await target().send("/rcp/retrieve", {
      method: "OPTIONS",
      headers: { ...preflight, origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("DNS rebinding: a Host not allowed is 403; localhost, IP literals and allowedHosts pass", async () => {
    const ping = (host: string) => target().send("/rcp/ping", { headers: { ...json, host }, body: frame("ping", {}) });
    const refused = await ping("evil.example:8000");
    expect([refused.status, parseReply(refused.text).error.code]).toEqual([403, -32012]);
    expect(parseReply(refused.text).error.message).toContain("http.allowedHosts");
    for (const host of [
      "localhost:8000",
      "app.localhost",
      "127.0.0.1:9",
      "[::1]:8000",
      "10.1.2.3",
      "rcp.example",
      "eu.rcp.example:443",
    ])
      expect([host, (await ping(host)).status]).toEqual([host, 200]);
    for (const host of ["evil.rcp.example.com", "xrcp.example", "a:b:c"])
      expect([host, (await ping(host)).status]).toEqual([host, 403]);
  });
});

describe("the defaults, and turning them off", () => {
  it("without cors every Origin is refused; allowedHosts: 'any' answers any Host", async () => {
    const open = demoServer({ allowedHosts: "any" });
    const target = fetchTarget(open);
    const withOrigin = await target.send("/rcp/ping", { headers: { ...json, origin: APP }, body: frame("ping", {}) });
    expect(withOrigin.status).toBe(403);
    const anyHost = await target.send("/rcp/ping", {
      headers: { ...json, host: "evil.example" },
      body: frame("ping", {}),
    });
    expect(anyHost.status).toBe(200);
    const closed = fetchTarget(demoServer({}));
    expect(
      (await closed.send("/rcp/ping", { headers: { ...json, host: "rcp.example" }, body: frame("ping", {}) })).status,
    ).toBe(403);
  });
});
