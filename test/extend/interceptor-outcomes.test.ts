/**
 * What a server interceptor returns is what the client gets, whichever way it hands on the
 * handler's outcome. An interceptor that returns `next(call)` as it got it lets a synchronous
 * handler be answered at once (ServerCore's fast path, ./runtime/src/server/interceptors.ts); these pin
 * down that the shortcut never answers with a value the chain did not return (§12 for errors).
 */
import { afterAll, describe, expect, it } from "vitest";
import type { RcpServer } from "../../runtime/src/server/create-server-runtime.js";
import { ErrorCode, RcpError } from "../../runtime/src/protocol/errors.js";
import type { Interceptor, ServerCall } from "../../runtime/src/protocol/types.js";
import { inProcessFixtureServer } from "../fixtures/server/in-process-server.js";

const servers: RcpServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** The JSON body answering `method` with `params` on a server with these interceptors. */
async function answer(
  interceptors: Interceptor<ServerCall>[],
  method: string,
  params: object = {},
): Promise<Record<string, unknown>> {
  const server = inProcessFixtureServer({ interceptors });
  servers.push(server);
  const response = await server.fetch(
    new Request(`http://localhost/rcp/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
    }),
  );
  return (await response.json()) as Record<string, unknown>;
}

const passThrough: Interceptor<ServerCall> = (next) => (call) => next(call);
const echoed = (value: string) => ({ params: { value }, meta: {}, session: null });

describe("server interceptors: the answer is the chain's outcome", () => {
  it("a pass-through around a synchronous handler answers with the handler's result", async () => {
    expect(await answer([passThrough, passThrough], "x-test/echo", { value: "a" })).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: echoed("a"),
    });
  });

  it("a guard that passes on a rewritten call answers with the rewritten call's result", async () => {
    const rewrite: Interceptor<ServerCall> = (next) => (call) => next({ ...call, params: { value: "rewritten" } });
    expect((await answer([rewrite], "x-test/echo", { value: "a" })).result).toEqual(echoed("rewritten"));
  });

  it("an interceptor that calls next but returns its own value answers with its own value", async () => {
    const replace: Interceptor<ServerCall> = (next) => (call) => {
      void next(call);
      return Promise.resolve(echoed("replaced"));
    };
    expect((await answer([replace], "x-test/echo", { value: "a" })).result).toEqual(echoed("replaced"));
  });

  it("of two calls of next, the one returned answers, not the latest", async () => {
    const twice: Interceptor<ServerCall> = (next) => (call) => {
      const first = next(call);
      void next({ ...call, params: { value: "second" } });
      return first;
    };
    expect((await answer([twice], "x-test/echo", { value: "first" })).result).toEqual(echoed("first"));
  });

  it("an interceptor that rewrites the result after next answers with the rewritten result", async () => {
    const rewriteResult: Interceptor<ServerCall> = (next) => (call) => next(call).then(() => echoed("after"));
    expect((await answer([passThrough, rewriteResult], "x-test/echo", { value: "a" })).result).toEqual(echoed("after"));
  });

  it("a throw after calling next answers with the throw (§12)", async () => {
    const refuse: Interceptor<ServerCall> = (next) => (call) => {
      void next(call);
      throw new RcpError(ErrorCode.Unauthorized, "Unauthorized: refused after next");
    };
    expect((await answer([refuse], "x-test/echo")).error).toEqual({
      code: ErrorCode.Unauthorized,
      message: "Unauthorized: refused after next",
    });
  });

  it("through a pass-through, a handler's throw is -32603 and a malformed result is -32603 (§12)", async () => {
    expect((await answer([passThrough], "x-test/crash")).error).toEqual({ code: -32603, message: "Internal error" });
    expect((await answer([passThrough], "x-test/malformed")).error).toMatchObject({ code: -32603 });
  });

  it("through a pass-through, a promised and a generated result are waited for", async () => {
    expect((await answer([passThrough], "x-test/sleep", { ms: 5 })).result).toEqual({ slept: 5 });
    expect((await answer([passThrough], "x-test/sync-stream")).result).toEqual({ done: true });
  });
});
