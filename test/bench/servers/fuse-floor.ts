/**
 * The least federator of scenario 9: `fuse-floor.js --path /rcp (--engine <URL> | --stdio <JSON
 * command>) ...`. Each POST's body is read whole and parsed, sent on to every engine at once, and
 * once all have answered their hits are fused by reciprocal-rank fusion into one JSON-RPC
 * response. An HTTP engine gets the plain `POST <base>/retrieve` the load generator also sends
 * (keep-alive, no Nagle, stateless); a stdio engine is started and initialized here, then gets
 * each request as one NDJSON line under an id of this floor's own. Nothing else: no runtime, no
 * validation, no sessions, no interceptors. What it adds over the slowest engine alone is the
 * hop plus parsing, fan-out, fusion and serializing.
 */
import { spawn } from "node:child_process";
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import type { Hit, RetrieveResult } from "../../../generated/types.js";
import { INITIALIZE_PARAMS } from "../fixture.js";
import { listenAndAnnounce } from "./announce.js";
import { installProbe } from "./probe.js";

installProbe();
const { values } = parseArgs({
  options: {
    path: { type: "string", default: "" },
    engine: { type: "string", multiple: true, default: [] },
    stdio: { type: "string", multiple: true, default: [] },
  },
});
const RRF_K = 60;
const agent = new Agent({ keepAlive: true, noDelay: true });

interface RetrieveFrame {
  id: string | number | null;
  method: string;
  params?: { k?: number };
}

type EngineAnswer = { result: RetrieveResult } | { error: { code: number; message: string } };

/** One engine: sends it the parsed request (`body`, serialized once for all HTTP engines) and resolves with its answer. */
type Engine = (frame: RetrieveFrame, body: string) => Promise<EngineAnswer>;

function httpEngine(url: string): Engine {
  const base = new URL(url);
  const target = { hostname: base.hostname, port: base.port, path: `${base.pathname.replace(/\/+$/, "")}/retrieve` };
  return async (_frame, body) => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json",
      "content-length": Buffer.byteLength(body),
    };
    const answer = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = request({ ...target, method: "POST", agent, headers }, resolve);
      outgoing.on("error", reject);
      outgoing.end(body);
    });
    const text = await readText(answer);
    if (answer.statusCode !== 200) throw new Error(`engine ${url}: HTTP ${answer.statusCode}`);
    return JSON.parse(text) as EngineAnswer;
  };
}

function stdioEngine(commandJson: string): Engine {
  const [command, ...args] = JSON.parse(commandJson) as string[];
  const child = spawn(command!, args, { stdio: ["pipe", "pipe", "inherit"] });
  child.on("exit", (code) => {
    process.stderr.write(`fuse-floor: the engine ${commandJson} exited (${code})\n`);
    process.exit(1);
  });
  const pending = new Map<number, (answer: EngineAnswer) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const answer = JSON.parse(line) as EngineAnswer & { id?: number };
    if (typeof answer.id !== "number") return;
    pending.get(answer.id)?.(answer);
    pending.delete(answer.id);
  });
  let lastId = 0;
  const send = (frame: object): Promise<EngineAnswer> =>
    new Promise((resolve) => {
      lastId += 1;
      pending.set(lastId, resolve);
      child.stdin.write(JSON.stringify({ ...frame, id: lastId }) + "\n");
    });
  const initialized = send({ jsonrpc: "2.0", method: "initialize", params: INITIALIZE_PARAMS });
  return async (frame) => {
    await initialized;
    return send(frame);
  };
}

const engines: Engine[] = [...values.engine.map(httpEngine), ...values.stdio.map(stdioEngine)];
if (engines.length === 0) throw new Error("fuse-floor needs --engine <URL> or --stdio <JSON command> once per engine");

function readText(stream: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    stream.on("error", reject);
  });
}

async function ask(engine: Engine, frame: RetrieveFrame, body: string): Promise<RetrieveResult> {
  const answer = await engine(frame, body);
  if ("error" in answer) throw new Error(`engine: ${answer.error.message}`);
  return answer.result;
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
    const results = await Promise.all(engines.map((engine) => ask(engine, frame, body)));
    const lists = results.map((result) => result.hits);
    const k = frame.params?.k ?? Math.max(...lists.map((hits) => hits.length));
    respond(outgoing, frame.id, { result: { hits: fuse(lists, k) } });
  } catch (error) {
    respond(outgoing, frame.id, { error: { code: -32603, message: (error as Error).message } });
  }
}

const server = createServer((incoming, outgoing) => void federate(incoming, outgoing));
server.on("connection", (socket: Socket) => socket.setNoDelay(true));
listenAndAnnounce(server, values.path);
