/**
 * Serves the engine. `node dist/server.js --stdio` speaks NDJSON on stdin and stdout (§5.1);
 * `node dist/server.js [--port 8000]` serves HTTP, with progress as Server-Sent Events, on
 * 127.0.0.1 (§5.2), and prints its base URL as the first line of stdout.
 */
import { listen, serveStdio } from "@rcp-gen/runtime/node";
import { server } from "./engine.js";

const args = process.argv.slice(2);
if (args.includes("--stdio")) {
  await serveStdio(server);
} else {
  const portAt = args.indexOf("--port");
  const { url } = await listen(server, { port: portAt >= 0 ? Number(args[portAt + 1]) : 8000 });
  console.log(url);
}
