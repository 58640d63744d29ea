/**
 * Server interceptors around every handler call, over real processes (stdio and HTTP/SSE):
 * the array's order, typed params they may rewrite, meta they may add, progress they observe
 * and the end of a streaming call, and throws answered like a handler's (§12). The fixture's
 * interceptors report what they saw in usage.notes, hit meta and stderr.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type RcpClient } from "../../generated/client.js";
import { connectStdio } from "../../generated/node.js";
import type { ProgressEvent } from "../../runtime/src/protocol/types.js";
import { startHttpProcess, type ServerProcess } from "../federation/processes.js";

const INTERCEPTED_SERVER = fileURLToPath(
  new URL("../../dist/test/fixtures/extend/intercepted-server.js", import.meta.url),
);
const clientInfo = { name: "interceptor-test", version: "1.0.0" };

let http: ServerProcess;
const clients: Record<string, RcpClient> = {};
beforeAll(async () => {
  http = await startHttpProcess(INTERCEPTED_SERVER, ["http"]);
  clients.http = await connectHttp({ clientInfo, transport: { url: http.url } });
  clients.stdio = await connectStdio({
    clientInfo,
    transport: { command: process.execPath, args: [INTERCEPTED_SERVER], stderr: "ignore" },
  });
});
afterAll(async () => {
  await Promise.all(Object.values(clients).map((client) => client.close()));
  await http.stop();
});

describe.each(["stdio", "http"])("over %s", (transport) => {
  it("runs in the array's order around the handler, which gets the params and meta they passed on", async () => {
    const events: ProgressEvent[] = [];
    const result = await clients[transport]!.retrieve(
      { query: "Compost FOR Tomatoes", k: 1 },
      { onProgress: (event) => void events.push(event) },
    );
    const hit = result.hits[0]!;
    expect(hit.text).toBe("compost for tomatoes");
    expect(hit.meta).toEqual({ order: ["outer", "inner"] });
    // Inner interceptors return first; timing, outside both, saw both progress events and the end.
    expect(result.usage?.notes).toEqual(["handler", "after inner", "after outer", "timing: 2 progress, last rerank"]);
    // Both ways a handler reports progress (yield, ctx.progress) passed the interceptors and reached the wire.
    expect(events.map((event) => event.stage)).toEqual(["recall", "rerank"]);
  });

  it("sees the handler's progress even when the client asked for none (nothing is sent then)", async () => {
    const result = await clients[transport]!.retrieve({ query: "quiet", k: 1 });
    expect(result.usage?.notes?.at(-1)).toBe("timing: 2 progress, last rerank");
  });

  it("a thrown RcpError is answered with its code and data; anything else is -32603 without its message", async () => {
    await expect(clients[transport]!.retrieve({ query: "refuse", k: 1 })).rejects.toMatchObject({
      code: -32012,
      message: "Unauthorized: refused by an interceptor",
      data: { detail: "x" },
    });
    const crash = clients[transport]!.retrieve({ query: "crash", k: 1 });
    await expect(crash).rejects.toMatchObject({ code: -32603, message: "Internal error" });
    await expect(crash).rejects.not.toMatchObject({ message: expect.stringContaining("secret") as unknown });
  });
});

describe("cancel and deadline answer first; the interceptor's signal says which", () => {
  it("a deadline: the client gets -32014 and the interceptor sees its signal abort with it", async () => {
    await expect(
      clients.http!.retrieve({ query: "slow", k: 1, _meta: { deadlineMs: 50 } }, { timeout: 10_000 }),
    ).rejects.toMatchObject({ code: -32014 });
    await http.waitFor((events) => events.some((event) => event.code === -32014), "the interceptor seeing -32014");
  });

  it("an HTTP client that gives up: the request is abandoned and the interceptor sees -32006", async () => {
    await expect(clients.http!.retrieve({ query: "slow", k: 1 }, { timeout: 100 })).rejects.toMatchObject({
      code: -32014,
    });
    await http.waitFor((events) => events.some((event) => event.code === -32006), "the interceptor seeing -32006");
  });

  it("an unexpected throw leaves one diagnostics line on the server's stderr, its message included", () => {
    expect(http.stderr()).toContain("rcp: retrieve failed: Error: secret internals");
  });
});
