/**
 * The demo engine on any Web-standard host: a module whose default export is a fetch handler,
 * which Cloudflare's workerd, `deno serve` and Bun take as it is. The same engine and generated
 * server as serve.ts, through `server.fetch` (§5.2), with no Node API on the way; a host with a
 * build step bundles it, corpus.json included.
 */
import { createDemoServer } from "./server.js";

const server = createDemoServer();

export default {
  fetch: (request: Request): Promise<Response> => server.fetch(request),
};
