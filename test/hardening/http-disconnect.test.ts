/**
 * A client that goes away (§13.1 "HTTP connection reset"): mid-request or mid-stream, the
 * handler's signal aborts, its deadline timer, its own timers and the SSE keep-alive are
 * released, and nothing is written after the end. Observed from outside: the server's
 * stderr and its live timer count, against the hardening server in a child process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hardeningHttp, type HttpServerChild } from "./children.js";
import { postJson, postOnce } from "./http-client.js";

let server: HttpServerChild;
beforeAll(async () => {
  server = await hardeningHttp({ http: { keepAliveMs: 50 } });
});
afterAll(() => server.stop());

const rpc = (id: string | number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

async function liveTimers(): Promise<number> {
  const { json } = await postJson(`${server.url}/x-harden/resources`, rpc("r", "x-harden/resources"));
  return (json.result.resources as string[]).filter((kind) => kind === "Timeout").length;
}

/** Polls the server's timer count until `done` holds for it (or 2 s pass); returns the last count. */
async function timersUntil(done: (count: number) => boolean): Promise<number> {
  let count = await liveTimers();
  for (let tries = 0; !done(count) && tries < 40; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    count = await liveTimers();
  }
  return count;
}

async function stderrIncludes(text: string): Promise<void> {
  for (let tries = 0; !server.stderr().includes(text) && tries < 100; tries++)
    await new Promise((r) => setTimeout(r, 20));
  expect(server.stderr()).toContain(text);
}

describe("a client disconnecting (§13.1)", () => {
  it("mid-request: the handler is aborted and every timer it held is released", async () => {
    const baseline = await liveTimers();
    const abort = new AbortController();
    const pending = postOnce(
      `${server.url}/x-test/sleep`,
      rpc("gone", "x-test/sleep", { ms: 60_000 }),
      {},
      abort.signal,
    );
    pending.catch(() => {});
    // While it sleeps, the handler's timer and the request deadline are both live.
    expect(await timersUntil((count) => count >= baseline + 2)).toBeGreaterThanOrEqual(baseline + 2);
    abort.abort();
    await stderrIncludes('aborted x-test/sleep "gone"');
    expect(await timersUntil((count) => count <= baseline)).toBeLessThanOrEqual(baseline);
  });

  it("mid-stream: the generator is aborted, the keep-alive and deadline are cleared, nothing is written after the end", async () => {
    const baseline = await liveTimers();
    const abort = new AbortController();
    const response = await fetch(`${server.url}/x-test/stream`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: rpc("stream", "x-test/stream", { steps: 200, ms: 30, _meta: { progressToken: "t" } }),
      signal: abort.signal,
    });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("notifications/progress");
    abort.abort();
    await stderrIncludes('aborted x-test/stream "stream"');
    expect(await timersUntil((count) => count <= baseline)).toBeLessThanOrEqual(baseline);
    // Give a late progress step its chance to (wrongly) write to the closed response.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.stderr()).not.toMatch(/ERR_STREAM|write after end|Error/);
  });

  it("the server keeps serving after both", async () => {
    expect((await postJson(`${server.url}/ping`, rpc(1, "ping"))).json).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });
});
