/**
 * The node:http floor: read the body, JSON.parse, build the fixed result, JSON.stringify,
 * respond. With BENCH_STREAM it answers `Accept: text/event-stream` with hand-written SSE
 * progress frames, each stamped with the moment it was written.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { buildRetrieveResult } from "../fixture.js";
import { listenAndAnnounce } from "./announce.js";
import { installProbe, sharedClockMs, streamPlan } from "./probe.js";

installProbe();
const plan = streamPlan();

function respondJson(response: ServerResponse, id: unknown): void {
  const body = JSON.stringify({ jsonrpc: "2.0", id, result: buildRetrieveResult() });
  response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

function respondStream(request: IncomingMessage, response: ServerResponse, id: unknown, token: unknown): void {
  const { events, intervalMs } = plan ?? { events: 0, intervalMs: 0 };
  request.socket.setNoDelay(true);
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let sent = 0;
  const timer = setInterval(() => {
    sent += 1;
    const params = { progressToken: token, progress: sent / events, message: String(sharedClockMs()) };
    response.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params })}\n\n`);
    if (sent < events) return;
    clearInterval(timer);
    response.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id, result: buildRetrieveResult() })}\n\n`);
  }, intervalMs);
  response.on("close", () => clearInterval(timer));
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const frame = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      id: unknown;
      params?: { _meta?: { progressToken?: unknown } };
    };
    const wantsStream = plan !== undefined && (request.headers.accept ?? "").includes("text/event-stream");
    if (wantsStream) respondStream(request, response, frame.id, frame.params?._meta?.progressToken);
    else respondJson(response, frame.id);
  });
});
listenAndAnnounce(server, "/rcp");
