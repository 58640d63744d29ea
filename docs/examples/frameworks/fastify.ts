/**
 * The generated server in Fastify 5: an onRequest hook hands requests below /rcp to the
 * listener before Fastify parses their body, and hijacks the reply so Fastify leaves the
 * response (an SSE stream included) to it.
 */
import Fastify from "fastify";
import type { RcpServer } from "@rcp-gen/runtime";
import { nodeListener } from "@rcp-gen/runtime/node";
import type { Mounted } from "./mounted.js";

export async function mountFastify(server: RcpServer, port = 0): Promise<Mounted> {
  // Hijacked replies leave Fastify unsure a connection is idle; end them all on close.
  const app = Fastify({ forceCloseConnections: true });
  const rcp = nodeListener(server);
  app.addHook("onRequest", (request, reply, done) => {
    if (request.url !== "/rcp" && !request.url.startsWith("/rcp/")) return done();
    reply.hijack();
    rcp(request.raw, reply.raw);
  });
  app.get("/health", () => ({ ok: true }));
  const origin = await app.listen({ port, host: "127.0.0.1" });
  return { url: `${origin}/rcp`, close: () => app.close() };
}
