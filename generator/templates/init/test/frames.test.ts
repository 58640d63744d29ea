/**
 * The engine speaks valid RCP/1: every frame of a streamed retrieve (progress, then the result)
 * and of a vendor method call is a valid frame of the protocol the generated code defines
 * (rcp-gen/vitest's matchers, made for that protocol). In-process, through the engine's
 * Web-standard fetch handler, the code `listen()` serves over HTTP.
 */
import { expect, it } from "vitest";
import { rcpMatchers } from "rcp-gen/vitest";
import { server } from "../src/engine.js";
import { protocol } from "../src/generated/index.js";

expect.extend(rcpMatchers(protocol));

type Frame = { method?: string; result?: { hits?: { id: string }[] }; error?: { code: number } };

/** POSTs one request asking for progress; returns every frame of the answer, SSE or plain JSON. */
async function call(method: string, params: object): Promise<Frame[]> {
  const request = { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: { progressToken: "p1" } } };
  const response = await server.fetch(
    new Request(`http://127.0.0.1/rcp/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream, application/json" },
      body: JSON.stringify(request),
    }),
  );
  const body = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return [JSON.parse(body) as Frame];
  return body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)) as Frame);
}

function expectValid(frames: readonly Frame[]): void {
  for (const frame of frames) expect(frame).toBeValidRcpFrame();
}

it("streams progress frames, then the result, each a valid RCP/1 frame", async () => {
  const frames = await call("retrieve", { query: "compost tomato", k: 2 });
  expectValid(frames);
  expect(frames.map((frame) => frame.method ?? "response")).toEqual([
    "notifications/progress",
    "notifications/progress",
    "response",
  ]);
  expect(frames.at(-1)?.result?.hits?.map((hit) => hit.id)).toEqual(["doc-1", "doc-3"]);
});

it("answers the vendor method x-example/lookup, and -32015 for an unknown id", async () => {
  const [found] = await call("x-example/lookup", { id: "doc-2" });
  const [missing] = await call("x-example/lookup", { id: "doc-404" });
  expectValid([found!, missing!]);
  expect(found?.result).toMatchObject({ id: "doc-2" });
  expect(missing?.error?.code).toBe(-32015);
});
