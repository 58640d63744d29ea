/**
 * The generated server in Hono on Node (@hono/node-server): Hono hands over Web Requests, so
 * the server's own fetch handler answers them, SSE responses streamed as they are written.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { Server } from "node:http";
import type { RcpServer } from "@rcp-gen/runtime";
import { closeServer, rcpUrl, type Mounted } from "./mounted.js";

export async function mountHono(server: RcpServer, port = 0): Promise<Mounted> {
  const app = new Hono();
  app.all("/rcp", (c) => server.fetch(c.req.raw));
  app.all("/rcp/*", (c) => server.fetch(c.req.raw));
  app.get("/health", (c) => c.json({ ok: true }));
  const http = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(listening as Server));
  });
  return {
    url: rcpUrl(http),
    close: () => closeServer(http),
  };
}
