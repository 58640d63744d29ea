/** HTTP streaming (§5.2, §9): SSE frames flushed while the handler runs, the buffered path, disconnects and mid-stream errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, readEvents, rpc, startHttpChild, type HttpChild, type SseEvent } from "./helpers/http-child.js";

let server: HttpChild;
beforeAll(async () => {
  server = await startHttpChild({ http: { keepAliveMs: 40 } });
});
afterAll(() => server.stop());

const SSE = { accept: "text/event-stream" };
const data = (event: SseEvent) => event.data;

describe("SSE responses", () => {
  it("progress frames arrive one by one while the handler runs, then one final response frame", async () => {
    const sent = performance.now();
    const response = await post(
      `${server.url}/x-test/stream`,
      rpc(1, "x-test/stream", { steps: 3, ms: 300, _meta: { progressToken: "t" } }),
      SSE,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const { events } = await readEvents(response);
    expect(events.map((event) => data(event).method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
    expect(data(events.at(-1)!)).toEqual({ jsonrpc: "2.0", id: 1, result: { steps: 3 } });
    // Each frame was flushed when yielded: the first came long before the handler finished. The
    // 300 ms steps leave room for a reader that a loaded machine schedules late by up to 200 ms.
    expect(events[0]!.at - sent).toBeLessThan(events[2]!.at - sent - 200);
    expect(events[1]!.at - events[0]!.at).toBeGreaterThan(100);
  });

  it("the same handler without Accept: text/event-stream gives one buffered JSON response", async () => {
    const response = await post(
      `${server.url}/x-test/stream`,
      rpc(2, "x-test/stream", { steps: 2, _meta: { progressToken: "t" } }),
    );
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { steps: 2 } });
  });

  it("without a progressToken the stream carries only the final frame (§9)", async () => {
    const response = await post(`${server.url}/x-test/stream`, rpc(3, "x-test/stream", { steps: 2 }), SSE);
    const { events } = await readEvents(response);
    expect(events.map(data)).toEqual([{ jsonrpc: "2.0", id: 3, result: { steps: 2 } }]);
  });

  it("an error after the stream started is the final frame: a specific code, or -32603 without internals", async () => {
    const backend = await readEvents(
      await post(
        `${server.url}/x-test/fail-mid-stream`,
        rpc(4, "x-test/fail-mid-stream", { _meta: { progressToken: 1 } }),
        SSE,
      ),
    );
    expect(backend.events.map(data).map((frame) => frame.method ?? frame.error?.code)).toEqual([
      "notifications/progress",
      -32010,
    ]);
    const crashResponse = await post(
      `${server.url}/x-test/fail-mid-stream`,
      rpc(5, "x-test/fail-mid-stream", { crash: true, _meta: { progressToken: 1 } }),
      SSE,
    );
    expect(crashResponse.status).toBe(200);
    const crash = await readEvents(crashResponse);
    expect(data(crash.events.at(-1)!)).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32603, message: "Internal error" },
    });
    expect(JSON.stringify(crash.events)).not.toContain("hunter2");
  });

  it("a client closing the stream aborts the handler's signal as cancelled (-32006), long before its deadline", async () => {
    const controller = new AbortController();
    const response = await post(
      `${server.url}/x-test/hang`,
      rpc("gone", "x-test/hang", { _meta: { progressToken: "h", deadlineMs: 3000 } }),
      SSE,
      controller.signal,
    );
    const reading = readEvents(response, () => controller.abort()).catch(() => undefined);
    // The handler is aborted either way, by the disconnect or else by its deadline: the code says which.
    await server.stderrIncludes('aborted x-test/hang "gone"');
    expect(server.stderr()).toContain('aborted x-test/hang "gone" -32006');
    await reading;
  });

  it("sends ':' keep-alive comments on long silences and a -32014 final frame at the deadline", async () => {
    const response = await post(
      `${server.url}/x-test/hang`,
      rpc(6, "x-test/hang", { _meta: { deadlineMs: 300 } }),
      SSE,
    );
    const { events, comments } = await readEvents(response);
    expect(comments).toBeGreaterThanOrEqual(2);
    expect(events.map(data)).toEqual([
      { jsonrpc: "2.0", id: 6, error: { code: -32014, message: "Timeout: the request deadline elapsed" } },
    ]);
  });
});
