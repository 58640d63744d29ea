/**
 * §13.1 a deadline that has passed when the handler finishes is still -32014. Node runs due
 * timers one duration at a time, so when the event loop lags, a handler's 20 ms timer can run
 * before the earlier-due timer of its request's 3 ms deadline: the result must not win.
 */
import { afterAll, describe, expect, it } from "vitest";
import { inProcessFixtureServer } from "../fixtures/server/in-process-server.js";
import { fixtureHandlers } from "../fixtures/server/handlers.js";
import type { RpcReply } from "./http-client.js";

/** Holds the event loop, as an expensive request of another caller would. */
function blockFor(ms: number): { blocked: number } {
  const until = performance.now() + ms;
  while (performance.now() < until);
  return { blocked: ms };
}

const server = inProcessFixtureServer({
  handlers: { ...fixtureHandlers, "x-test/echo": (params: { blockMs?: number }) => blockFor(params.blockMs ?? 0) },
});
afterAll(() => server.close());

const post = async (method: string, params: object): Promise<RpcReply> => {
  const response = await server.fetch(
    new Request(`http://localhost/rcp/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: method, method, params }),
    }),
  );
  return (await response.json()) as RpcReply;
};

describe("§13.1 the deadline is checked again when a request completes", () => {
  it("a 3 ms deadline behind a blocked loop answers -32014, although its 20 ms sleep ran first", async () => {
    for (let round = 0; round < 3; round++) {
      // An earlier 20 ms timer makes the 20 ms list due first once the loop is free again.
      const earlier = post("x-test/sleep", { ms: 20 });
      await new Promise((resolve) => setTimeout(resolve, 12));
      const late = post("x-test/sleep", { ms: 20, _meta: { deadlineMs: 3 } });
      const blocker = post("x-test/echo", { blockMs: 40 });
      const [answer] = await Promise.all([late, earlier, blocker]);
      expect(answer.error).toMatchObject({ code: -32014 });
    }
  });
});
