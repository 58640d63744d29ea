/**
 * What the resumable-stream tests share: a server over node:http whose `x-test/stream` handler
 * counts its runs and aborts, and a raw SSE reader that sees each event's id and data as sent.
 */
import { createServerRuntime, type RcpServer } from "../../runtime/src/index.js";
import type { AnyHandler } from "../../runtime/src/server/core.js";
import type { HttpOptions } from "../../runtime/src/http/options.js";
import { listen } from "../../runtime/src/node/index.js";
import { fixtureHandlers } from "../fixtures/server/handlers.js";
import { testCapabilities, testProtocol } from "../fixtures/test-protocol.js";
import type { ServerState } from "../../runtime/src/state/types.js";

/** What the stream handlers did: runs started, runs finished, aborts seen (with the abort's code), by request id. */
export interface HandlerLog {
  readonly runs: Map<string, number>;
  readonly done: Set<string>;
  readonly aborts: Map<string, number | undefined>;
}

/** Each handler event as a line (`run <id>`, `done <id>`, `abort <id> <code>`), for a server in a child process. */
export type HandlerReport = (line: string) => void;

export function streamHandler(log: HandlerLog, report: HandlerReport = () => {}): AnyHandler {
  return async function* (params: { steps?: number; ms?: number }, ctx) {
    const id = String(ctx.id);
    log.runs.set(id, (log.runs.get(id) ?? 0) + 1);
    report(`run ${id}`);
    ctx.signal.addEventListener("abort", () => {
      const code = (ctx.signal.reason as { code?: number } | undefined)?.code;
      log.aborts.set(id, code);
      report(`abort ${id} ${code}`);
    });
    const steps = params.steps ?? 3;
    for (let step = 1; step <= steps; step++) {
      await new Promise((resolve) => setTimeout(resolve, params.ms ?? 0));
      if (ctx.signal.aborted) throw ctx.signal.reason as Error;
      yield { progress: step / steps, stage: "step", partial: { step } };
    }
    log.done.add(id);
    report(`done ${id}`);
    return { steps };
  };
}

export interface TestServer {
  readonly url: string;
  readonly log: HandlerLog;
  readonly diagnostics: string[];
  close(): Promise<void>;
}

export async function startServer(
  http: HttpOptions,
  { state, report }: { state?: ServerState; report?: HandlerReport } = {},
): Promise<TestServer> {
  const log: HandlerLog = { runs: new Map(), done: new Set(), aborts: new Map() };
  const diagnostics: string[] = [];
  const server: RcpServer = createServerRuntime(testProtocol, {
    info: { name: "resume-test", version: "1" },
    capabilities: testCapabilities,
    conformance: "L0",
    handlers: { ...fixtureHandlers, "x-test/stream": streamHandler(log, report) },
    http,
    state,
    diagnostics: (line) => diagnostics.push(line),
  });
  const listening = await listen(server, { port: 0 });
  return { url: listening.url, log, diagnostics, close: () => server.close() };
}

/** One SSE event as sent: its id, retry and data lines (undefined when absent). */
export interface SseEvent {
  id?: string;
  retry?: string;
  data?: string;
}

/** Splits SSE text into events (our servers send one field per line, `\n` line ends). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => {
      const event: SseEvent = {};
      for (const line of block.split("\n")) {
        const colon = line.indexOf(": ");
        const field = line.slice(0, colon) as keyof SseEvent;
        if (field === "id" || field === "retry" || field === "data") event[field] = line.slice(colon + 2);
      }
      return event;
    });
}

/** The JSON frames of some events, priming and keep-alive events left out. */
export interface Frame {
  id?: unknown;
  method?: string;
  params?: { partial?: { step: number } };
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export function frames(events: readonly SseEvent[]): Frame[] {
  return events
    .filter((event) => event.data !== undefined && event.data !== "")
    .map((event) => JSON.parse(event.data!) as Frame);
}

export const rpc = (id: string | number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, params });

/**
 * POSTs a streaming call and reads its SSE text until `until` holds for what arrived (then the
 * connection is cut) or the stream ends.
 */
export async function postStream(
  url: string,
  id: string,
  params: object,
  { headers = {}, until }: { headers?: Record<string, string>; until?: (text: string) => boolean } = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const abort = new AbortController();
  const response = await fetch(`${url}/x-test/stream`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: rpc(id, "x-test/stream", { ...params, _meta: { progressToken: id } }),
    signal: abort.signal,
  });
  return { status: response.status, text: await readUntil(response, abort, until), headers: response.headers };
}

/** A resume (GET) or cancel (DELETE) request naming `lastEventId`. */
export async function resume(
  url: string,
  lastEventId: string,
  {
    headers = {},
    until,
    method = "GET",
  }: { headers?: Record<string, string>; until?: (text: string) => boolean; method?: string } = {},
): Promise<{ status: number; text: string; headers: Headers }> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method,
    headers: { "last-event-id": lastEventId, ...headers },
    signal: abort.signal,
  });
  return { status: response.status, text: await readUntil(response, abort, until), headers: response.headers };
}

async function readUntil(
  response: Response,
  abort: AbortController,
  until?: (text: string) => boolean,
): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (until?.(text) === true) {
      abort.abort();
      await reader.cancel().catch(() => {});
      return text;
    }
  }
}

/** The id of the last event in `text` that carried one. */
export function lastId(text: string): string {
  return parseSse(text)
    .filter((event) => event.id !== undefined)
    .at(-1)!.id!;
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds or 3 s pass. */
export async function eventually(check: () => boolean): Promise<boolean> {
  for (let tries = 0; !check() && tries < 150; tries++) await wait(20);
  return check();
}
