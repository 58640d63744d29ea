/**
 * The client's opt-in retry policy (§12.2) against a server failing on purpose, over HTTP and
 * stdio: only calls the schema marks idempotent (index/add only with ids or an idempotency
 * key, §7.10), only errors that say a retry may succeed, honouring retryAfterMs, the call's
 * deadline and its abort signal. Attempts are counted by the server itself.
 */
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type RcpClient } from "../../generated/client.js";
import { connectStdio } from "../../generated/node.js";
import { protocol } from "../../generated/methods.js";
import { repeatable } from "../../runtime/src/client/retry.js";
import type { RetryPolicy } from "../../runtime/src/client/retry.js";
import type { MethodDescriptor } from "../../runtime/src/protocol/descriptor.js";
import { startHttpProcess, type ServerProcess } from "../federation/processes.js";

const FLAKY_SERVER = fileURLToPath(new URL("../../dist/test/fixtures/extend/flaky-server.js", import.meta.url));
const clientInfo = { name: "retry-test", version: "1.0.0" };

let server: ServerProcess;
let client: RcpClient;
const retries: Array<{ method: string; attempt: number; delayMs: number; code: unknown }> = [];
const policy: RetryPolicy = {
  maxAttempts: 4,
  initialDelayMs: 5,
  onRetry: ({ method, attempt, delayMs, error }) =>
    void retries.push({ method, attempt, delayMs, code: (error as { code?: unknown }).code }),
};
beforeAll(async () => {
  server = await startHttpProcess(FLAKY_SERVER, ["http"]);
  client = await connectHttp({ clientInfo, transport: { url: server.url }, retry: policy });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const attemptsSeen = async (key: string): Promise<unknown> =>
  ((await client.retrieve({ query: `count:${key}`, k: 1 })).hits[0]!.meta as { attempts: number }).attempts;

describe("what is retried", () => {
  it("a retryable error (-32011) until the call succeeds, waiting at least retryAfterMs each time", async () => {
    retries.length = 0;
    const { hits } = await client.retrieve({ query: "busy2:a", k: 1 });
    expect(hits[0]!.meta).toEqual({ attempts: 3 });
    expect(retries.map(({ attempt, code }) => [attempt, code])).toEqual([
      [2, -32011],
      [3, -32011],
    ]);
    for (const { delayMs } of retries) expect(delayMs).toBeGreaterThanOrEqual(20);
  });

  it("up to maxAttempts, then the last error", async () => {
    await expect(client.retrieve({ query: "down:b", k: 1 })).rejects.toMatchObject({ code: -32010 });
    expect(await attemptsSeen("b")).toBe(4);
  });

  it("never an error whose code says no (-32602) or whose data.retryable is false", async () => {
    await expect(client.retrieve({ query: "bad:c", k: 1 })).rejects.toMatchObject({ code: -32602 });
    await expect(client.retrieve({ query: "final:d", k: 1 })).rejects.toMatchObject({ code: -32010 });
    expect([await attemptsSeen("c"), await attemptsSeen("d")]).toEqual([1, 1]);
  });

  it("index/add only when every document has an id or the call carries _meta.idempotencyKey (§7.10)", async () => {
    await expect(client.indexAdd({ documents: [{ id: "x1", text: "with-id" }] })).resolves.toEqual({ ids: ["x1"] });
    expect(await attemptsSeen("with-id")).toBe(2);
    await expect(
      client.indexAdd({ documents: [{ id: "x2", text: "some-id" }, { text: "no id" }] }),
    ).rejects.toMatchObject({ code: -32010 });
    expect(await attemptsSeen("some-id")).toBe(1);
    const keyed = { documents: [{ text: "keyed" }], _meta: { idempotencyKey: "k-1" } };
    await expect(client.indexAdd(keyed)).resolves.toEqual({ ids: ["minted-0"] });
    expect(await attemptsSeen("keyed")).toBe(2);
    await expect(
      client.indexAdd({ documents: [{ text: "meta-key" }] }, { meta: { idempotencyKey: "k-2" } }),
    ).resolves.toEqual({
      ids: ["minted-0"],
    });
  });

  it("never a method the schema does not mark idempotent (feedback)", async () => {
    await expect(client.feedback({ query: "fb", signals: [{ hitId: "h", used: true }] })).rejects.toMatchObject({
      code: -32010,
    });
    expect(await attemptsSeen("fb")).toBe(1);
  });

  it("the rule comes from the schema's descriptor", () => {
    const add = protocol.methods["index/add"].idempotent;
    expect(
      repeatable(add, {
        documents: [
          { id: "a", text: "t" },
          { id: "b", text: "u" },
        ],
      }),
    ).toBe(true);
    expect(repeatable(add, { documents: [{ id: "a", text: "t" }, { text: "u" }] })).toBe(false);
    expect(repeatable(add, { documents: [{ text: "t" }], _meta: { idempotencyKey: "k" } })).toBe(true);
    expect(repeatable(protocol.methods.retrieve.idempotent, {})).toBe(true);
    expect(repeatable((protocol.methods.feedback as MethodDescriptor).idempotent, {})).toBe(false);
  });
});

describe("bounds", () => {
  it("no retry whose backoff would end past the call's deadline: the first error, not a timeout", async () => {
    await expect(client.retrieve({ query: "slow:e", k: 1 }, { timeout: 1000 })).rejects.toMatchObject({ code: -32011 });
    expect(await attemptsSeen("e")).toBe(1);
  });

  it("_meta.deadlineMs bounds it too, and later attempts carry what is left of it", async () => {
    await expect(client.retrieve({ query: "slow:f", k: 1, _meta: { deadlineMs: 1000 } })).rejects.toMatchObject({
      code: -32011,
    });
    expect(await attemptsSeen("f")).toBe(1);
  });

  it("an abort during the backoff ends the call with -32006", async () => {
    const controller = new AbortController();
    const aborting = await connectHttp({
      clientInfo,
      transport: { url: server.url },
      retry: { onRetry: () => controller.abort(new Error("user gave up")) },
    });
    const call = aborting.retrieve({ query: "busy1:g", k: 1 }, { signal: controller.signal });
    await expect(call).rejects.toMatchObject({ code: -32006, data: { detail: "user gave up" } });
    expect(await attemptsSeen("g")).toBe(1);
    await aborting.close();
  });
});

describe("transports", () => {
  it("over stdio the same policy applies", async () => {
    const stdio = await connectStdio({
      clientInfo,
      transport: { command: process.execPath, args: [FLAKY_SERVER] },
      retry: { initialDelayMs: 5 },
    });
    const { hits } = await stdio.retrieve({ query: "busy1:h", k: 1 });
    expect(hits[0]!.meta).toEqual({ attempts: 2 });
    await stdio.close();
  });

  it("an HTTP request that got no answer (connection refused) is retried; a dead stdio connection is not", async () => {
    const doomed = await startHttpProcess(FLAKY_SERVER, ["http"]);
    const attempts: number[] = [];
    const http = await connectHttp({
      clientInfo,
      transport: { url: doomed.url },
      retry: { maxAttempts: 3, initialDelayMs: 5, onRetry: ({ attempt }) => void attempts.push(attempt) },
    });
    await doomed.stop();
    await expect(http.retrieve({ query: "x:i", k: 1 })).rejects.toMatchObject({ name: "TransportError" });
    expect(attempts).toEqual([2, 3]);
    await http.close();

    const stdioAttempts: number[] = [];
    const stdio = await connectStdio({
      clientInfo,
      transport: { command: process.execPath, args: [FLAKY_SERVER] },
      retry: { initialDelayMs: 5, onRetry: ({ attempt }) => void stdioAttempts.push(attempt) },
    });
    await stdio.call("shutdown", {});
    // Until the server has exited, calls are refused with -32600 (§13.1); neither is retried.
    await expect
      .poll(() => stdio.retrieve({ query: "x:j", k: 1 }).catch((error: Error) => error.name))
      .toBe("TransportError");
    expect(stdioAttempts).toEqual([]);
    await stdio.close();
  });

  it("a stdio call that fails on a broken pipe is not retried, though the process has not closed yet", async () => {
    const attempts: number[] = [];
    const stdio = await connectStdio({
      clientInfo,
      transport: { command: process.execPath, args: [FLAKY_SERVER] },
      retry: { initialDelayMs: 5, onRetry: ({ attempt }) => void attempts.push(attempt) },
    });
    await stdio.retrieve({ query: "deaf:k", k: 1 });
    // The server no longer reads: a write breaks the pipe (EPIPE) while its child keeps stdout
    // open, so the connection is lost before it is closed. Calls written before the pipe is known
    // broken wait for the close; later ones fail at once, and none is retried.
    const waiting: Promise<unknown>[] = [];
    const outcome = () => {
      const call = stdio.retrieve({ query: "x:k", k: 1 }).catch((error: Error) => error);
      waiting.push(call);
      return Promise.race([call.then((error) => (error as Error).message), delay(100, "still waiting")]);
    };
    await expect.poll(outcome, { timeout: 2_500 }).toMatch(/^Server stdin failed/);
    expect(attempts).toEqual([]);
    await stdio.close();
    for (const error of await Promise.all(waiting)) expect(error).toMatchObject({ name: "TransportError" });
    expect(attempts).toEqual([]);
  });
});
