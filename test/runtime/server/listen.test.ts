/**
 * listen() and nodeListener() load the node:http adapter on first use (so a stdio server never
 * loads node:http): what they do and report is the same as when it was loaded up front (§5.2).
 */
import { createServer as createNodeServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import type { RcpServer } from "../../../runtime/src/server/create-server-runtime.js";
import { listen, nodeListener } from "../../../runtime/src/node/index.js";
import { inProcessFixtureServer } from "../../fixtures/server/in-process-server.js";

const servers: RcpServer[] = [];
function rcpServer(): RcpServer {
  const server = inProcessFixtureServer();
  servers.push(server);
  return server;
}
const hosts: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(hosts.map((host) => new Promise((resolve) => host.close(resolve))));
});

const ping = (url: string) =>
  fetch(`${url}/ping`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { nonce: "n" } }),
  }).then((response) => response.json());

describe("listen() and nodeListener() (§5.2)", () => {
  it("listen() reports the URL of the port it bound, answers there, and a taken port rejects with EADDRINUSE", async () => {
    const listening = await listen(rcpServer(), { port: 0 });
    expect(listening.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rcp$/);
    expect(await ping(listening.url)).toEqual({ jsonrpc: "2.0", id: 1, result: { nonce: "n" } });
    const port = Number(new URL(listening.url).port);
    await expect(listen(rcpServer(), { port })).rejects.toMatchObject({ code: "EADDRINUSE" });
    await listening.close();
  });

  it("listen() of something that is not a server rejects with a TypeError", async () => {
    await expect(listen({} as RcpServer)).rejects.toBeInstanceOf(TypeError);
  });

  it("a request reaching nodeListener() at once, before its adapter has loaded, is answered", async () => {
    const host = createNodeServer(nodeListener(rcpServer()));
    hosts.push(host);
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
    const { port } = host.address() as AddressInfo;
    expect(await ping(`http://127.0.0.1:${port}/rcp`)).toEqual({ jsonrpc: "2.0", id: 1, result: { nonce: "n" } });
  });
});
