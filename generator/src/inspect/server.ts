/**
 * The inspector's HTTP server: the page and its assets, and the API the page drives the
 * engine with. Every request passes the Guard first (guard.ts). A call's progress and end
 * come back on its own response as NDJSON; every frame on the engine connection goes out to
 * each open page over SSE (GET /api/frames), those so far first.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ProtocolDescriptor } from "@rcp-gen/runtime";
import { validateFrame } from "@rcp-gen/runtime/testing";
import type { ConformReport } from "../conform/report.js";
import type { Engine, RecordedFrame } from "./engine.js";
import { Guard } from "./guard.js";
import type { CallEvent, FrameVerdict, SessionView, WireError } from "./messages.js";
import type { MethodView } from "./schema-view.js";

export interface InspectorServerOptions {
  readonly engine: Engine;
  readonly protocol: ProtocolDescriptor;
  readonly methods: readonly MethodView[];
  readonly transport: SessionView["transport"];
  readonly target: string;
  readonly token: string;
  /** Default 0: the OS picks a free port. */
  readonly port?: number;
  /** Runs `rcp-gen conform` against the same engine. */
  readonly conform: () => Promise<ConformReport>;
}

export interface InspectorServer {
  /** The page's address, with the session token. */
  readonly url: string;
  /** Hands a frame of the engine connection to every open frames stream. */
  publish(frame: RecordedFrame): void;
  close(): Promise<void>;
}

/** The bundled page (scripts/bundle-inspector.js writes it beside this module at build time). */
const PAGE_FOLDER = new URL("./page/", import.meta.url);
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export async function startInspectorServer(options: InspectorServerOptions): Promise<InspectorServer> {
  const assets = readAssets();
  const frameStreams = new Set<ServerResponse>();
  const calls = new Map<string, AbortController>();
  let nextCallId = 1;
  let lastReport: ConformReport | undefined;

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => Promise<void> | void> = {
    "GET /": (_request, response) => send(response, 200, "text/html; charset=utf-8", pageHtml(options.token)),
    "GET /page.js": (_request, response) => send(response, 200, "text/javascript; charset=utf-8", assets.script),
    "GET /page.css": (_request, response) => send(response, 200, "text/css; charset=utf-8", assets.style),
    "GET /api/session": (_request, response) => sendJson(response, 200, sessionView(options)),
    "GET /api/frames": (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      for (const frame of options.engine.frames) response.write(sseEvent(frame));
      frameStreams.add(response);
      response.on("close", () => frameStreams.delete(response));
    },
    "POST /api/validate": async (request, response) => {
      const { text } = (await readJson(request)) as { text?: unknown };
      const frame = typeof text === "string" ? text : text === undefined || text === null ? "" : JSON.stringify(text);
      sendJson(response, 200, verdict(validateFrame(frame, { protocol: options.protocol })));
    },
    "POST /api/call": async (request, response) => {
      const { method, params } = (await readJson(request)) as { method?: unknown; params?: unknown };
      const callId = String(nextCallId++);
      const controller = new AbortController();
      calls.set(callId, controller);
      response.writeHead(200, { "content-type": "application/x-ndjson", "cache-control": "no-store" });
      const started = performance.now();
      const at = () => Math.round(performance.now() - started);
      const emit = (event: CallEvent) => response.write(`${JSON.stringify(event)}\n`);
      emit({ type: "started", callId });
      // A page that goes away (closed, reloaded) takes its call with it.
      response.on("close", () => calls.get(callId)?.abort(new Error("the page went away")));
      const view = options.methods.find((candidate) => candidate.method === method);
      try {
        const result = await options.engine.client.call(String(method), params ?? {}, {
          signal: controller.signal,
          ...(view?.streaming ? { onProgress: (event) => emit({ type: "progress", at: at(), ...event }) } : {}),
        });
        emit({ type: "result", at: at(), result });
      } catch (error) {
        emit({ type: "error", at: at(), error: wireError(error) });
      } finally {
        calls.delete(callId);
        response.end();
      }
    },
    "POST /api/cancel": async (request, response) => {
      const { callId } = (await readJson(request)) as { callId?: unknown };
      const controller = calls.get(String(callId));
      controller?.abort(new Error("cancelled from the inspector"));
      sendJson(response, controller === undefined ? 404 : 200, { cancelled: controller !== undefined });
    },
    "GET /api/conform": (_request, response) => sendJson(response, 200, lastReport ?? null),
    "POST /api/conform": async (_request, response) => {
      lastReport = await options.conform();
      sendJson(response, 200, lastReport);
    },
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://inspector");
    const refusal = guard.refusal(request, url);
    if (refusal !== undefined)
      return send(response, refusal.status, "text/plain; charset=utf-8", `${refusal.reason}\n`);
    const route = routes[`${request.method} ${url.pathname}`];
    if (route === undefined) return send(response, 404, "text/plain; charset=utf-8", "not found\n");
    Promise.resolve(route(request, response)).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, error instanceof BadRequest ? 400 : 500, { error: wireError(error) });
      else response.end();
    });
  });
  await new Promise<void>((listening, failed) => {
    server.once("error", failed);
    server.listen(options.port ?? 0, "127.0.0.1", () => listening());
  });
  const { port } = server.address() as AddressInfo;
  const guard = new Guard(options.token, port);

  return {
    url: `http://127.0.0.1:${port}/?token=${options.token}`,
    publish(frame) {
      for (const stream of frameStreams) stream.write(sseEvent(frame));
    },
    async close() {
      for (const controller of calls.values()) controller.abort(new Error("the inspector is closing"));
      for (const stream of frameStreams) stream.end();
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

function sessionView(options: InspectorServerOptions): SessionView {
  const { client } = options.engine;
  const allowed = (path: string | null | undefined) => path === null || path === undefined || client.supports(path);
  return {
    transport: options.transport,
    target: options.target,
    ...(client.serverInfo === undefined ? {} : { server: client.serverInfo }),
    ...(client.protocolVersion === undefined ? {} : { protocolVersion: client.protocolVersion }),
    ...(client.conformance === undefined ? {} : { conformance: client.conformance }),
    capabilities: client.serverCapabilities ?? {},
    frames: options.engine.frames.length,
    methods: options.methods.map((method) => ({
      ...method,
      advertised: allowed(method.capability) && allowed(method.requires),
    })),
  };
}

function verdict(check: ReturnType<typeof validateFrame>): FrameVerdict {
  return check.ok
    ? { ok: true, kind: check.kind, problems: [] }
    : {
        ok: false,
        ...(check.kind === undefined ? {} : { kind: check.kind }),
        problems: check.errors.map(({ path, message }) => ({ path, message })),
      };
}

function wireError(error: unknown): WireError {
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  return {
    ...(typeof code === "number" ? { code } : {}),
    message: typeof message === "string" ? message : String(error),
    ...(data === undefined ? {} : { data }),
  };
}

/** The page: nothing inline, so the policy can forbid every inline script and style. */
function pageHtml(token: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="rcp-inspector-token" content="${token}">
<title>rcp-gen inspect</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/page.css?token=${token}">
<script type="module" src="/page.js?token=${token}"></script>
</head>
<body><main id="app"><p id="loading">Connecting…</p></main></body>
</html>
`;
}

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, "content-type": type }).end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, "application/json", JSON.stringify(value));
}

function sseEvent(frame: RecordedFrame): string {
  return `data: ${JSON.stringify(frame)}\n\n`;
}

/** A JSON body; only `application/json`, which a foreign page cannot send without a preflight. */
async function readJson(request: IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/i.test(request.headers["content-type"] ?? ""))
    throw new BadRequest("the body must be application/json");
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) throw new BadRequest("the body is too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new BadRequest("the body is not JSON");
  }
}

class BadRequest extends Error {}

function readAssets(): { script: string; style: string } {
  try {
    return {
      script: readFileSync(new URL("page.js", PAGE_FOLDER), "utf8"),
      style: readFileSync(new URL("page.css", PAGE_FOLDER), "utf8"),
    };
  } catch {
    throw new Error(
      `the inspector's page is missing from ${PAGE_FOLDER.pathname}; build rcp-gen first (npm run build)`,
    );
  }
}
