/**
 * Client interceptors around every call, `initialize` included, over real processes: the
 * array's order, per-call headers and `_meta` they add, progress they ask for and observe,
 * errors they see or raise; and a per-method typed interceptor beside a universal one.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type RcpClient, type RcpMethods } from "../../generated/client.js";
import { connectStdio } from "../../generated/node.js";
import type { ClientCall, ClientCallOf, Interceptor, UniversalInterceptor } from "../../runtime/src/protocol/types.js";
import { startHttpProcess, type ServerProcess } from "../federation/processes.js";
import { IDENTITY_SERVER } from "./identity-child.js";

const INTERCEPTED_SERVER = fileURLToPath(
  new URL("../../dist/test/fixtures/extend/intercepted-server.js", import.meta.url),
);
const clientInfo = { name: "client-interceptor-test", version: "1.0.0" };

/** Records each call on the way in and its outcome on the way out. */
function recorder(name: string, log: string[]): UniversalInterceptor {
  return (next) => async (call) => {
    log.push(`${name}> ${call.method}`);
    try {
      const result = await next(call);
      log.push(`<${name} ${call.method}`);
      return result;
    } catch (error) {
      log.push(`<${name} ${call.method} ${(error as { code?: number }).code}`);
      throw error;
    }
  };
}

/** Per-method typing: narrowing on call.method types call.params. */
const tagRetrieves: Interceptor<ClientCallOf<RcpMethods>> = (next) => (call) => {
  if (call.method !== "retrieve") return next(call);
  const tag = `k=${call.params.k}`;
  return next({ ...call, headers: { ...call.headers, "x-request-tag": tag }, meta: { ...call.meta, traceId: tag } });
};

const seenBy = async (client: RcpClient, options = {}) =>
  (await client.retrieve({ query: "q", k: 1 }, options)).hits[0]!.meta as Record<string, unknown>;

describe("over HTTP", () => {
  let server: ServerProcess;
  beforeAll(async () => void (server = await startHttpProcess(IDENTITY_SERVER, ["http"])));
  afterAll(() => server.stop());

  it("run in the array's order around every call, initialize included, and see its outcome", async () => {
    const log: string[] = [];
    const client = await connectHttp({
      clientInfo,
      transport: { url: server.url, headers: { authorization: "Bearer reader" } },
      interceptors: [recorder("a", log), recorder("b", log)],
    });
    await seenBy(client);
    expect(log).toEqual([
      "a> initialize",
      "b> initialize",
      "<b initialize",
      "<a initialize",
      "a> retrieve",
      "b> retrieve",
      "<b retrieve",
      "<a retrieve",
    ]);
    log.length = 0;
    await expect(client.retrieve({ query: "q", k: 1, mode: "dense" })).rejects.toMatchObject({ code: -32005 });
    expect(log).toEqual(["a> retrieve", "b> retrieve", "<b retrieve -32005", "<a retrieve -32005"]);
    await client.close();
  });

  it("add headers and _meta to one call, beside the transport's headers and the caller's own", async () => {
    const client = await connectHttp({
      clientInfo,
      transport: { url: server.url, headers: { authorization: "Bearer writer" } },
      interceptors: [tagRetrieves],
    });
    expect(await seenBy(client)).toMatchObject({
      auth: { subject: "writer" },
      header: "k=1",
      traceId: "k=1",
    });
    await client.close();
  });

  it("an interceptor's header reaches authenticate before initialize; a per-call headers option needs none", async () => {
    await expect(connectHttp({ clientInfo, transport: { url: server.url } })).rejects.toMatchObject({ code: -32012 });
    const authorised: Interceptor<ClientCall> = (next) => (call) =>
      next({ ...call, headers: { ...call.headers, authorization: "Bearer reader" } });
    const withToken = await connectHttp({ clientInfo, transport: { url: server.url }, interceptors: [authorised] });
    expect(await seenBy(withToken, { headers: { "x-request-tag": "per-call" } })).toMatchObject({
      auth: { subject: "reader" },
      header: "per-call",
    });
    await withToken.close();
  });

  it("a throw is the call's rejection, and nothing is sent", async () => {
    const sent: string[] = [];
    const refuse: Interceptor<ClientCall> = (next) => (call) => {
      if (call.method === "retrieve") throw new Error("not today");
      sent.push(call.method);
      return next(call);
    };
    const client = await connectHttp({
      clientInfo,
      transport: { url: server.url, headers: { authorization: "Bearer reader" } },
      interceptors: [refuse],
    });
    await expect(seenBy(client)).rejects.toThrow("not today");
    expect(sent).toEqual(["initialize"]);
    await client.close();
  });
});

describe.each(["stdio", "http"])("progress over %s", (transport) => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.stop());

  it("setting onProgress asks for progress and observes it, whether or not the caller did", async () => {
    const stages: string[] = [];
    const observe: UniversalInterceptor = (next) => (call) =>
      next({
        ...call,
        onProgress: (event) => {
          stages.push(String(event.stage));
          call.onProgress?.(event);
        },
      });
    const options = { clientInfo, interceptors: [observe] };
    let client: RcpClient;
    if (transport === "http") {
      server = await startHttpProcess(INTERCEPTED_SERVER, ["http"]);
      client = await connectHttp({ ...options, transport: { url: server.url } });
    } else {
      client = await connectStdio({
        ...options,
        transport: { command: process.execPath, args: [INTERCEPTED_SERVER], stderr: "ignore" },
      });
    }
    await client.retrieve({ query: "q", k: 1 });
    expect(stages).toEqual(["recall", "rerank"]);
    const callerSaw: string[] = [];
    await client.retrieve({ query: "q", k: 1 }, { onProgress: (event) => void callerSaw.push(String(event.stage)) });
    expect(callerSaw).toEqual(["recall", "rerank"]);
    expect(stages).toHaveLength(4);
    await client.close();
  });
});
