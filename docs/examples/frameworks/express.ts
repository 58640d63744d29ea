/**
 * The generated server in Express 5, beside the app's own routes: the listener is middleware
 * that answers below /rcp and passes anything else on. Mounted before express.json(), it reads
 * the body itself, with its own size limit (a parser in front is tolerated: its result is used).
 */
import express from "express";
import type { Server } from "node:http";
import type { RcpServer } from "@rcp-gen/runtime";
import { nodeListener } from "@rcp-gen/runtime/node";
import { closeServer, rcpUrl, type Mounted } from "./mounted.js";

export async function mountExpress(server: RcpServer, port = 0): Promise<Mounted> {
  const app = express();
  app.use(nodeListener(server));
  app.use(express.json());
  app.get("/health", (_request, response) => void response.json({ ok: true }));
  const http = await new Promise<Server>((resolve) => {
    const listening = app.listen(port, "127.0.0.1", () => resolve(listening));
  });
  return {
    url: rcpUrl(http),
    close: () => closeServer(http),
  };
}
