/**
 * The floor of scenario 9 over stdio: `relay-stdio.js --path /rcp -- <engine command...>`, an
 * HTTP server that starts one stdio engine, initializes it, then writes each request body to
 * it as one NDJSON line and answers with the line that comes back. Bodies are not parsed: the
 * load generator has one request in flight at a time, so answers come back in request order,
 * and the engine sends nothing else (no progress or logs are asked for).
 */
import { spawn } from "node:child_process";
import { createServer, type ServerResponse } from "node:http";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { INITIALIZE_PARAMS } from "../fixture.js";
import { listenAndAnnounce } from "./announce.js";
import { installProbe } from "./probe.js";

installProbe();
const { values, positionals } = parseArgs({
  options: { path: { type: "string", default: "" } },
  allowPositionals: true,
});
const [command, ...args] = positionals;
if (command === undefined) throw new Error("relay-stdio needs the engine's command after --");
const engine = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
engine.on("exit", (code) => {
  process.stderr.write(`relay-stdio: the engine exited (${code})\n`);
  process.exit(1);
});

/** Answers to the requests written so far, oldest first. */
const waiting: Array<(line: string) => void> = [];
createInterface({ input: engine.stdout }).on("line", (line) => waiting.shift()?.(line));
const send = (line: string): Promise<string> =>
  new Promise((answer) => {
    waiting.push(answer);
    engine.stdin.write(line + "\n");
  });

function respond(response: ServerResponse, line: string): void {
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(line) });
  response.end(line);
}

await send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS }));
const server = createServer((incoming, outgoing) => {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => void send(Buffer.concat(chunks).toString("utf8")).then((line) => respond(outgoing, line)));
});
server.on("connection", (socket) => socket.setNoDelay(true));
listenAndAnnounce(server, values.path);
