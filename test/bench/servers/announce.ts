/** How the HTTP peers start: listen on an ephemeral port of 127.0.0.1 and announce their URL on stdout. */
import type { Server } from "node:http";

export function listenAndAnnounce(server: Server, path = ""): void {
  // Longer than any bench run, so keep-alive connections are never recycled mid-measurement.
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    process.stdout.write(JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}${path}` }) + "\n");
  });
  process.on("SIGTERM", () => process.exit(0));
}
