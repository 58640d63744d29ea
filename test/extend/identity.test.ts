/**
 * Caller identity (§5.2, §15.3): `http.authenticate` may return an identity, which handlers
 * see as `ctx.auth`, beside `ctx.transport` (stdio, or HTTP with its request headers); over
 * stdio the identity is serveStdio's `auth`. Real processes, the generated client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, type RcpClient } from "../../generated/client.js";
import { connectStdio } from "../../generated/node.js";
import { startHttpProcess, type ServerProcess } from "../federation/processes.js";
import { IDENTITY_SERVER } from "./identity-child.js";

const clientInfo = { name: "identity-test", version: "1.0.0" };

async function seen(client: RcpClient): Promise<Record<string, unknown>> {
  const { hits } = await client.retrieve({ query: "who am I", k: 1 });
  return hits[0]!.meta as Record<string, unknown>;
}

describe("over HTTP", () => {
  let server: ServerProcess;
  beforeAll(async () => void (server = await startHttpProcess(IDENTITY_SERVER, ["http"])));
  afterAll(() => server.stop());

  const connect = (token: string, headers: Record<string, string> = {}) =>
    connectHttp({
      clientInfo,
      transport: { url: server.url, headers: { authorization: `Bearer ${token}`, ...headers } },
    });

  it("the identity authenticate returned is ctx.auth, members the deployer added included", async () => {
    const client = await connect("writer", { "x-request-tag": "t-1" });
    expect(await seen(client)).toEqual({
      auth: { subject: "writer", scopes: ["read", "index:write"], tenant: "acme" },
      transport: "http",
      header: "t-1",
      traceId: null,
    });
    await client.close();
  });

  it("each request carries its own caller: two clients of one server see their own identity", async () => {
    const [reader, writer] = await Promise.all([connect("reader"), connect("writer")]);
    const [asReader, asWriter] = await Promise.all([seen(reader), seen(writer)]);
    expect((asReader.auth as { subject: string }).subject).toBe("reader");
    expect((asWriter.auth as { subject: string }).subject).toBe("writer");
    await Promise.all([reader.close(), writer.close()]);
  });

  it("`true` lets the request through with no identity: ctx.auth is undefined", async () => {
    const client = await connect("anonymous");
    expect(await seen(client)).toMatchObject({ auth: null, transport: "http" });
    await client.close();
  });

  it("`false` is still 401 with -32012, before initialize (§5.2)", async () => {
    await expect(connect("stranger")).rejects.toMatchObject({ code: -32012 });
  });
});

describe("over stdio", () => {
  it("ctx.auth is serveStdio's `auth` (the parent process), ctx.transport stdio", async () => {
    const client = await connectStdio({
      clientInfo,
      transport: { command: process.execPath, args: [IDENTITY_SERVER] },
    });
    expect(await seen(client)).toEqual({
      auth: { subject: "parent-process", scopes: ["read"] },
      transport: "stdio",
      header: null,
      traceId: null,
    });
    await client.close();
  });
});
