/**
 * The least federator of scenario 9, over HTTP engines: `fuse-floor-http.js --engine <URL> ...`.
 * Each POST's body is read whole and parsed, sent on to every engine at once (keep-alive, no
 * Nagle, stateless: the plain `POST <base>/retrieve` the load generator also sends), and once
 * all have answered their hits are fused by reciprocal-rank fusion into one JSON-RPC response.
 * Nothing else: no runtime, no validation, no sessions, no interceptors. What it adds over the
 * slowest engine alone is the hop plus parsing, fan-out, fusion and serializing.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { parseArgs } from "node:util";
import type { Hit, RetrieveResult } from "../../../generated/types.js";
import { listenAndAnnounce } from "./announce.js";
import { installProbe } from "./probe.js";

installProbe();
const { values } = parseArgs({ options: { engine: { type: "string", multiple: true } } });
if (values.engine === undefined) throw new Error("fuse-floor-http needs --engine <URL> once per engine");
/** Where each engine's retrieve goes: `POST <base>/retrieve`, the one method this floor serves. */
const engines = values.engine.map((url) => {
  const base = new URL(url);
  const path = `${base.pathname.replace(/\/+$/, "")}/retrieve`;
  return { url, target: { hostname: base.hostname, port: base.port, path } };
});
type Engine = (typeof engines)[number];
const RRF_K = 60;
const agent = new Agent({ keepAlive: true, noDelay: true });

interface RetrieveFrame {
  id: string | number | null;
  method: string;
  params?: { k?: number };
}

type EngineAnswer = { result: RetrieveResult } | { error: { code: number; message: string } };

function readText(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

async function ask(engine: Engine, body: string): Promise<RetrieveResult> {
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    "content-length": Buffer.byteLength(body),
  };
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request({ ...engine.target, method: "POST", agent, headers }, resolve);
    outgoing.on("error", reject);
    outgoing.end(body);
  });
  const text = await readText(answer);
  if (answer.statusCode !== 200) throw new Error(`engine ${engine.url}: HTTP ${answer.statusCode}`);
  const parsed = JSON.parse(text) as EngineAnswer;
  if ("error" in parsed) throw new Error(`engine ${engine.url}: ${parsed.error.message}`);
  return parsed.result;
}

/** RRF: each hit scores the sum of 1 / (RRF_K + rank) over the lists that hold it, rank from 1. */
function fuse(lists: readonly Hit[][], k: number): Hit[] {
  const fused = new Map<string, Hit>();
  for (const hits of lists) {
    hits.forEach((hit, index) => {
      const contribution = 1 / (RRF_K + index + 1);
      const key = String(hit.id);
      const seen = fused.get(key);
      if (seen === undefined) fused.set(key, { ...hit, score: contribution });
      else seen.score += contribution;
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, k);
}

function respond(outgoing: ServerResponse, id: RetrieveFrame["id"], answer: EngineAnswer): void {
  const body = JSON.stringify({ jsonrpc: "2.0", id, ...answer });
  outgoing.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  outgoing.end(body);
}

async function federate(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  let frame: RetrieveFrame;
  try {
    frame = JSON.parse(await readText(incoming)) as RetrieveFrame;
  } catch {
    return respond(outgoing, null, { error: { code: -32700, message: "Parse error" } });
  }
  if (typeof frame !== "object" || frame === null)
    return respond(outgoing, null, { error: { code: -32600, message: "Invalid Request" } });
  if (frame.method !== "retrieve")
    return respond(outgoing, frame.id, { error: { code: -32601, message: `Method not found: ${frame.method}` } });
  try {
    const body = JSON.stringify(frame);
    const results = await Promise.all(engines.map((engine) => ask(engine, body)));
    const lists = results.map((result) => result.hits);
    const k = frame.params?.k ?? Math.max(...lists.map((hits) => hits.length));
    respond(outgoing, frame.id, { result: { hits: fuse(lists, k) } });
  } catch (error) {
    respond(outgoing, frame.id, { error: { code: -32603, message: (error as Error).message } });
  }
}

const server = createServer((incoming, outgoing) => void federate(incoming, outgoing));
server.on("connection", (socket: Socket) => socket.setNoDelay(true));
listenAndAnnounce(server, new URL(values.engine[0]!).pathname);
