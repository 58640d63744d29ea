/**
 * The floor of scenario 9, over HTTP: `relay-http.js --to <engine URL>`, the least a process in
 * the federator's place can do. Each request goes on to the one engine over a keep-alive
 * connection and its answer comes back, status, headers and bytes as received: no JSON is
 * parsed, no fan-out, no fusion. What it adds over the engine alone is the extra hop itself.
 */
import { Agent, createServer, request } from "node:http";
import type { Socket } from "node:net";
import { parseArgs } from "node:util";
import { listenAndAnnounce } from "./announce.js";
import { installProbe } from "./probe.js";

installProbe();
const { values } = parseArgs({ options: { to: { type: "string" } } });
if (values.to === undefined) throw new Error("relay-http needs --to <engine URL>");
const engine = new URL(values.to);
const agent = new Agent({ keepAlive: true, noDelay: true });
const noDelay = (socket: Socket) => socket.setNoDelay(true);

const server = createServer((incoming, outgoing) => {
  const forwarded = request(
    {
      host: engine.hostname,
      port: engine.port,
      path: incoming.url,
      method: incoming.method,
      headers: incoming.headers,
      agent,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on("error", (error) => outgoing.writeHead(502).end(error.message));
  incoming.pipe(forwarded);
});
server.on("connection", noDelay);
listenAndAnnounce(server, engine.pathname);
