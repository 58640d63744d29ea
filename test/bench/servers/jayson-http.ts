/** jayson's node:http JSON-RPC server answering the same retrieve. */
import jayson from "jayson";
import { buildRetrieveResult } from "../fixture.js";
import { installProbe } from "./probe.js";

installProbe();

const server = new jayson.Server({
  retrieve: (_params: unknown, callback: (error: null, result: unknown) => void) => callback(null, buildRetrieveResult()),
});
const http = server.http();
http.keepAliveTimeout = 60_000;
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(JSON.stringify({ ready: true, url: `http://127.0.0.1:${port}` }) + "\n");
});
process.on("SIGTERM", () => process.exit(0));
