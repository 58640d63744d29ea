/**
 * One `rcp-gen call`: connect to the engine (a stdio command or an HTTP base URL) with the
 * runtime's client, speaking the protocol compiled from the schema folder, then either list
 * what the engine advertises or make one call: progress and log lines on stderr as they
 * arrive, the result as JSON on stdout, an error as its code, message and `data.field`.
 * Ctrl-C cancels the call (§7.14) and, over stdio, waits for the engine's answer to it.
 */
import { BaseClient, TransportError, type ClientTransport, type JsonObject, type MethodMap } from "@rcp-gen/runtime";
import { conformProtocol } from "../conform/protocol.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";
import { generatorVersion } from "../cli/version.js";

/** What the process exits with: distinct for each way a call can end (docs/cli.md). */
export const callExitCode = { ok: 0, rcpError: 1, usage: 2, transport: 3, interrupted: 130 } as const;

export type CallTarget = { readonly http: string } | { readonly command: readonly string[]; readonly cwd?: string };

export interface CallRun {
  readonly target: CallTarget;
  readonly folder: LoadedSchemaFolder;
  /** List the advertised methods instead of calling one. */
  readonly list: boolean;
  readonly method?: string;
  readonly params: JsonObject;
  /** Ask for progress and print it. */
  readonly progress: boolean;
  /** Print every notification frame as one JSON line on stderr instead of readable lines. */
  readonly ndjson: boolean;
  readonly logLevel?: string;
  readonly timeoutMs?: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** How long Ctrl-C waits for a stdio engine's answer to the cancel before giving up. */
const CANCEL_GRACE_MS = 10_000;

export async function runCall(run: CallRun): Promise<number> {
  const protocol = conformProtocol(run.folder);
  const watcher = new FrameWatcher(run.method, run.ndjson);
  const client = new BaseClient<MethodMap>({
    protocol,
    transport: watcher.wrap(await transportFor(run)),
    clientInfo: { name: "rcp-gen-call", version: generatorVersion },
    capabilities: { streaming: {}, log: {} },
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    return report(error, "the engine did not initialize");
  }
  try {
    if (run.list) {
      process.stdout.write(listing(client, protocol.methods));
      return callExitCode.ok;
    }
    return await call(client, run, watcher);
  } finally {
    await client.close();
  }
}

async function call(client: BaseClient<MethodMap>, run: CallRun, watcher: FrameWatcher): Promise<number> {
  const controller = new AbortController();
  let interrupted = false;
  const onInterrupt = () => {
    // A second Ctrl-C stops waiting for the engine.
    if (interrupted) process.exit(callExitCode.interrupted);
    interrupted = true;
    process.stderr.write("rcp-gen call: cancelling (Ctrl-C again to quit now)\n");
    controller.abort(new Error("interrupted"));
  };
  process.on("SIGINT", onInterrupt);
  try {
    const result = await client.call(run.method!, run.params, {
      signal: controller.signal,
      ...(run.timeoutMs === undefined ? {} : { timeout: run.timeoutMs }),
      ...(run.progress ? { onProgress: (event) => watcher.progress(event) } : {}),
      ...(run.logLevel === undefined ? {} : { logLevel: run.logLevel, onLog: (log) => watcher.log(log) }),
      ...(Object.keys(run.headers).length === 0 ? {} : { headers: { ...run.headers } }),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return callExitCode.ok;
  } catch (error) {
    if (!interrupted || !("command" in run.target)) return report(error);
    // Over stdio the engine still answers the cancelled request (§7.14): wait for that answer.
    const answer = await watcher.answer(CANCEL_GRACE_MS);
    if (answer === undefined) return report(error);
    if ("result" in answer) {
      process.stdout.write(`${JSON.stringify(answer.result, null, 2)}\n`);
      return callExitCode.ok;
    }
    return report(answer.error);
  } finally {
    process.removeListener("SIGINT", onInterrupt);
  }
}

/** One line per advertised method, with the capability that gates it. */
function listing(
  client: BaseClient<MethodMap>,
  methods: Readonly<Record<string, { capability: string | null; requires?: string; beforeInitialize: boolean }>>,
): string {
  const rows = Object.entries(methods)
    .filter(
      ([, method]) =>
        (method.capability === null || client.supports(method.capability)) &&
        (method.requires === undefined || client.supports(method.requires)),
    )
    .map(([name, method]) => [
      name,
      method.capability === null
        ? "always (no capability)"
        : `capability ${method.capability}${method.requires === undefined ? "" : `, requires ${method.requires}`}`,
    ]);
  const width = Math.max(...rows.map(([name]) => name!.length));
  return rows.map(([name, gate]) => `${name!.padEnd(width)}  ${gate}\n`).join("");
}

/** Prints an error as the engine or the transport gave it; the exit code says which. */
function report(error: unknown, context?: string): number {
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code === "number" && !(error instanceof TransportError)) {
    const field = (data as { field?: unknown } | undefined)?.field;
    const lines = [`error ${code}: ${String(message)}`];
    if (typeof field === "string") lines.push(`data.field: ${field}`);
    if (data !== undefined) lines.push(`data: ${JSON.stringify(data)}`);
    process.stderr.write(`${lines.join("\n")}\n`);
    return callExitCode.rcpError;
  }
  process.stderr.write(`rcp-gen call: ${context === undefined ? "" : `${context}: `}${String(message ?? error)}\n`);
  return callExitCode.transport;
}

async function transportFor(run: CallRun): Promise<ClientTransport> {
  if ("http" in run.target) {
    const { httpClientTransport } = await import("@rcp-gen/runtime");
    return httpClientTransport({ url: run.target.http, headers: { ...run.headers } });
  }
  const [command, ...args] = run.target.command;
  const { stdioClientTransport } = await import("@rcp-gen/runtime/node");
  return stdioClientTransport({
    command: command!,
    args,
    ...(run.target.cwd === undefined ? {} : { cwd: run.target.cwd }),
    // The engine's diagnostics stay visible; a Ctrl-C in the terminal must reach only this
    // process, which cancels the call and waits for the engine's answer.
    stderr: "inherit",
    detached: true,
  });
}

type Answer = { result: unknown } | { error: unknown };

/** Watches the frames: the call's own answer (for Ctrl-C) and, with --ndjson, every notification. */
class FrameWatcher {
  #requestId: unknown;
  #answer: Answer | undefined;
  #waiting: ((answer: Answer) => void) | undefined;

  constructor(
    private readonly method: string | undefined,
    private readonly ndjson: boolean,
  ) {}

  wrap(inner: ClientTransport): ClientTransport {
    return {
      cancellation: inner.cancellation,
      start: (sink) =>
        inner.start({
          receive: (frame, exchange) => {
            this.#received(frame);
            sink.receive(frame, exchange);
          },
          closed: (error) => sink.closed(error),
        }),
      send: (frame, options) => {
        const sent = frame as { id?: unknown; method?: unknown };
        if (sent.method === this.method && sent.id !== undefined) this.#requestId = sent.id;
        return inner.send(frame, options);
      },
      close: () => inner.close(),
    };
  }

  progress(event: { progress: number; stage?: string; message?: string }): void {
    if (this.ndjson) return;
    const stage = event.stage === undefined ? "" : ` ${event.stage}`;
    process.stderr.write(
      `progress ${Math.round(event.progress * 100)}%${stage}${event.message === undefined ? "" : `: ${event.message}`}\n`,
    );
  }

  log(log: { level: string; message?: string; logger?: string; data?: unknown }): void {
    if (this.ndjson) return;
    const text = log.message ?? (log.data === undefined ? "" : JSON.stringify(log.data));
    process.stderr.write(`log ${log.level}${log.logger === undefined ? "" : ` [${log.logger}]`}: ${text}\n`);
  }

  /** The engine's answer to the call, when it comes within `ms`. */
  answer(ms: number): Promise<Answer | undefined> {
    if (this.#answer !== undefined) return Promise.resolve(this.#answer);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ms);
      this.#waiting = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
    });
  }

  #received(frame: unknown): void {
    const message = frame as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
    if (this.ndjson && typeof message.method === "string") process.stderr.write(`${JSON.stringify(frame)}\n`);
    if (message.id === undefined || message.id !== this.#requestId) return;
    this.#answer = "error" in message ? { error: message.error } : { result: message.result };
    this.#waiting?.(this.#answer);
  }
}
