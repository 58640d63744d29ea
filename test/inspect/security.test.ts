/**
 * Who the inspector answers (generator/src/inspect/guard.ts): its server can make the engine
 * do anything, so a request without the session token, with a wrong one, from another Origin
 * or Sec-Fetch-Site, or for another Host (DNS rebinding) is refused before it reaches a route,
 * and none of them makes the engine see a frame. Raw node:http requests, so every header is
 * the test's to choose; the browser's side of the same rule is in browser.test.ts.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { runCli } from "../generator/run-cli.js";
import { recordedFrames, startInspector, type Inspector } from "./inspector.js";

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function send(inspector: Inspector, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(inspector.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { hostname, port, path, method: body === undefined ? "GET" : "POST", headers, agent: false },
      (response) => {
        let text = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe("rcp-gen inspect: only its own page, with the session token, is answered", () => {
  let inspector: Inspector;
  let host: string;
  let bearer: Record<string, string>;
  const retrieve = JSON.stringify({ method: "retrieve", params: { query: "compost", k: 1 } });
  const json = { "content-type": "application/json" };

  beforeAll(async () => {
    inspector = await startInspector("--", process.execPath, DEMO_SERVE, "--stdio");
    host = new URL(inspector.origin).host;
    bearer = { host, authorization: `Bearer ${inspector.token}` };
  }, 40_000);
  afterAll(() => inspector?.stop());

  const frameCount = async () => (await recordedFrames(inspector)).length;

  it("prints a URL on 127.0.0.1 whose token is long and random", () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
  });

  it("refuses a request without the token, or with a wrong one, with 401", async () => {
    const before = await frameCount();
    expect((await send(inspector, "/", { host })).status).toBe(401);
    expect((await send(inspector, "/page.js", { host })).status).toBe(401);
    expect((await send(inspector, "/api/session", { host })).status).toBe(401);
    expect((await send(inspector, "/api/call", { host, ...json }, retrieve)).status).toBe(401);
    const wrong = `${inspector.token.slice(0, -1)}${inspector.token.endsWith("A") ? "B" : "A"}`;
    expect((await send(inspector, `/api/call?token=${wrong}`, { host, ...json }, retrieve)).status).toBe(401);
    expect(
      (await send(inspector, "/api/call", { host, authorization: `Bearer ${wrong}`, ...json }, retrieve)).status,
    ).toBe(401);
    expect(await frameCount()).toBe(before);
  });

  it("refuses another Origin, a cross-site fetch and a rebound Host with 403, token or not", async () => {
    const before = await frameCount();
    const foreign = await send(inspector, "/api/call", { ...bearer, origin: "http://evil.example", ...json }, retrieve);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/Origin http:\/\/evil\.example/);
    // Another port of 127.0.0.1 is another origin too.
    const otherPort = `http://127.0.0.1:${Number(new URL(inspector.origin).port) + 1}`;
    expect((await send(inspector, "/api/call", { ...bearer, origin: otherPort, ...json }, retrieve)).status).toBe(403);
    expect(
      (await send(inspector, "/api/call", { ...bearer, "sec-fetch-site": "cross-site", ...json }, retrieve)).status,
    ).toBe(403);
    const rebound = await send(inspector, "/api/session", {
      ...bearer,
      host: `evil.example:${new URL(inspector.origin).port}`,
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host evil\.example/);
    expect(await frameCount()).toBe(before);
  });

  it("answers its own page: the token as a header or in the query, its own Origin", async () => {
    const page = await send(inspector, `/?token=${inspector.token}`, { host });
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    const called = await send(inspector, "/api/call", { ...bearer, origin: inspector.origin, ...json }, retrieve);
    expect(called.status).toBe(200);
    const events = called.body
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("started");
    expect(types).toContain("progress");
    expect(types.at(-1)).toBe("result");
  });

  it("cancels a call on the wire when the page that made it goes away (§7.14)", async () => {
    const { hostname, port } = new URL(inspector.origin);
    const slow = JSON.stringify({
      method: "retrieve",
      params: { query: "compost", k: 1, _meta: { "x-demo-delayMs": 3000 } },
    });
    await new Promise<void>((started) => {
      const outgoing = request(
        { hostname, port, path: "/api/call", method: "POST", headers: { ...bearer, ...json }, agent: false },
        // The first line says the call started; then the page "closes".
        (response) => response.once("data", () => (outgoing.destroy(), started())),
      );
      outgoing.on("error", () => {});
      outgoing.end(slow);
    });
    await expect
      .poll(async () => (await recordedFrames(inspector)).map((recorded) => recorded.frame.method), { timeout: 10_000 })
      .toContain("notifications/cancel");
  });

  it("takes JSON only, so a foreign form cannot post without a preflight", async () => {
    const plain = await send(inspector, "/api/call", { ...bearer, "content-type": "text/plain" }, retrieve);
    expect(plain.status).toBe(400);
  });

  it("says what is wrong with its command line, exiting 2", () => {
    const neither = runCli(["inspect"]);
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain("give either --http <url> or -- <command> [args...]");
    const badPort = runCli(["inspect", "--port", "x", "--http", "http://127.0.0.1:1/rcp"]);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toContain("--port must be a port number");
  });
});
