/**
 * How the HTTP servers of the bench start: on an ephemeral port of 127.0.0.1, announcing their
 * URL on stdout; they stop on SIGTERM, and also when their parent goes away (stdin closes), so
 * none outlives a bench run that was killed outright.
 */
import type { Server } from "node:http";

export function announceUrl(url: string): void {
  process.stdout.write(JSON.stringify({ ready: true, url }) + "\n");
  process.on("SIGTERM", () => process.exit(0));
  process.stdin.on("end", () => process.exit(0)).resume();
}

export function listenAndAnnounce(server: Server, path = ""): void {
  // Longer than any bench run, so keep-alive connections are never recycled mid-measurement.
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    announceUrl(`http://127.0.0.1:${port}${path}`);
  });
}
