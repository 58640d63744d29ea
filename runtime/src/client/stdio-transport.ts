/**
 * stdio client transport (§5.1): spawns the server, writes NDJSON to its stdin with write
 * backpressure respected, reads NDJSON from its stdout (lines that are not JSON are
 * skipped), and reports the child's exit or a broken pipe as the transport's death.
 * close() is EOF-as-shutdown (§7.12): end stdin, wait a bounded time, then kill.
 * A line above `maxMessageBytes` is never buffered whole: the call it answers fails with
 * -32013 and the connection goes on; one that names no request ends the connection.
 */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { ErrorCode } from "../protocol/errors.js";
import { NdjsonReader, ndjsonFrame } from "../framing/ndjson.js";
import { readFrameHead } from "./frame-head.js";
import {
  DEFAULT_CLIENT_MAX_MESSAGE_BYTES,
  parseFrame,
  TransportError,
  type ClientTransport,
  type ClientTransportSink,
  type OutgoingFrame,
} from "./transport.js";

/** The server's command, arguments, folder and environment, its stderr, and the transport's limits. */
export interface StdioClientTransportOptions {
  /** The server's executable, e.g. `process.execPath` or `"node"`; spawned without a shell. */
  command: string;
  /** Its arguments, e.g. `["dist/server.js", "--stdio"]`. */
  args?: readonly string[];
  /** Its working directory; the parent's when omitted. */
  cwd?: string;
  /** The child's whole environment; the parent's when omitted. */
  env?: NodeJS.ProcessEnv;
  /** The child's stderr (diagnostics only, §5.1): shared, readable via `stderr`, or dropped. Default "inherit". */
  stderr?: "inherit" | "pipe" | "ignore";
  /** How long close() waits for the server to exit after EOF before killing it. Default 2000 ms. */
  exitTimeoutMs?: number;
  /** Largest line read from the server, in bytes. Default 64 MiB (DEFAULT_CLIENT_MAX_MESSAGE_BYTES). */
  maxMessageBytes?: number;
  /**
   * Start the server in a process group of its own, so a Ctrl-C in the terminal reaches only
   * the client, which can then cancel its calls (§7.14) and hear the answers before it closes
   * the server. Default false: the server shares the terminal's signals.
   */
  detached?: boolean;
}

const KILL_GRACE_MS = 1000;

/** The client transport over stdio (§5.1); made by `stdioClientTransport`. */
export class StdioClientTransport implements ClientTransport {
  readonly cancellation = "notification";
  readonly #options: StdioClientTransportOptions;
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #failure: TransportError | undefined;
  #closing = false;
  #drain: Promise<void> | undefined;

  constructor(options: StdioClientTransportOptions) {
    this.#options = options;
  }

  /** The server's stderr when `stderr: "pipe"` was chosen. */
  get stderr(): Readable | null {
    return this.#child?.stderr ?? null;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(sink: ClientTransportSink): Promise<void> {
    // Loaded on first start, so a process that only serves never loads it (start-up time).
    const { spawn } = await import("node:child_process");
    // close() came while it loaded: nothing is spawned, and the caller's close() stands.
    if (this.#closing) return;
    const child = spawn(this.#options.command, [...(this.#options.args ?? [])], {
      cwd: this.#options.cwd,
      env: this.#options.env ?? process.env,
      stdio: ["pipe", "pipe", this.#options.stderr ?? "inherit"],
      detached: this.#options.detached ?? false,
    });
    this.#child = child;
    const reader = new NdjsonReader({
      maxLineBytes: this.#options.maxMessageBytes ?? DEFAULT_CLIENT_MAX_MESSAGE_BYTES,
      onLine: (line) => deliverLine(line, sink),
      onOversized: (bytes, head) => this.#oversized(bytes, head, sink),
    });
    child.stdout!.on("data", (chunk: Buffer) => reader.push(chunk));
    child.stdout!.on("end", () => reader.end());
    // EPIPE: the server stopped reading. Killing it makes "close" fire once its stdout is drained.
    child.stdin!.on("error", (error) => {
      this.#failure ??= connectionLost(`Server stdin failed: ${error.message}`, error);
      child.kill("SIGKILL");
    });
    // "close" comes after stdout has ended, so responses written before exit are still delivered.
    this.#exited = new Promise((resolve) => {
      child.on("close", (code, signal) => {
        this.#failure ??= connectionLost(
          `Server process exited (${signal === null ? `code ${String(code)}` : `signal ${signal}`})`,
        );
        if (!this.#closing) sink.closed(this.#failure);
        resolve();
      });
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      // Kept for the child's lifetime: a later "error" (a failed kill) must not go unhandled.
      child.on("error", (error) => {
        this.#failure ??= connectionLost(`Cannot start ${this.#options.command}: ${error.message}`, error);
        reject(this.#failure);
      });
    });
  }

  async send(frame: OutgoingFrame): Promise<void> {
    const stdin = this.#child?.stdin;
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#closing) throw new TransportError("Transport closed");
    if (stdin === undefined || stdin === null) throw new TransportError("Transport not started");
    if (!stdin.write(ndjsonFrame(JSON.stringify(frame)))) await this.#drained(stdin);
  }

  async close(): Promise<void> {
    const child = this.#child;
    // Before the spawn too: a start() still loading must not spawn a process nobody will close.
    this.#closing = true;
    // No pid: not spawned yet, or the spawn itself failed, so there is nothing to end or reap.
    if (child?.pid === undefined || this.#exited === undefined) return;
    child.stdin?.end();
    if (await settlesWithin(this.#exited, this.#options.exitTimeoutMs ?? 2000)) return;
    child.kill("SIGTERM");
    if (await settlesWithin(this.#exited, KILL_GRACE_MS)) return;
    child.kill("SIGKILL");
    await this.#exited;
  }

  /**
   * A line too large to read: the call it answers fails with -32013 and reading goes on; a
   * notification is dropped; a line naming neither may have been any call's answer, so the
   * connection ends and every pending call fails.
   */
  #oversized(bytes: number, head: Uint8Array, sink: ClientTransportSink): void {
    const limit = this.#options.maxMessageBytes ?? DEFAULT_CLIENT_MAX_MESSAGE_BYTES;
    const what = `a ${bytes}-byte line from the server exceeds maxMessageBytes (${limit})`;
    const { id, hasMethod } = readFrameHead(new TextDecoder().decode(head));
    if (id !== undefined) {
      const error = { code: ErrorCode.PayloadTooLarge, message: `Response too large: ${what}`, data: { limit, bytes } };
      sink.receive({ jsonrpc: "2.0", id, error });
    } else if (!hasMethod) {
      this.#failure ??= connectionLost(`Connection closed: ${what} and names no request`);
      sink.closed(this.#failure);
      void this.close();
    }
  }

  /** One shared wait per congestion episode; fails if the pipe closes instead of draining. */
  #drained(stdin: NodeJS.WritableStream): Promise<void> {
    this.#drain ??= new Promise<void>((resolve, reject) => {
      const done = (): void => {
        stdin.off("drain", onDrain);
        stdin.off("close", onClose);
        this.#drain = undefined;
      };
      const onDrain = (): void => {
        done();
        resolve();
      };
      const onClose = (): void => {
        done();
        reject(this.#failure ?? connectionLost("Server stdin closed"));
      };
      stdin.on("drain", onDrain);
      stdin.on("close", onClose);
    });
    return this.#drain;
  }
}

/** The client transport over stdio (§5.1): spawns the server and speaks NDJSON on its stdin and stdout. */
export function stdioClientTransport(options: StdioClientTransportOptions): StdioClientTransport {
  return new StdioClientTransport(options);
}

/** Not JSON: skipped, the connection goes on (stdout is protocol-only, but peers misbehave). */
function deliverLine(line: string, sink: ClientTransportSink): void {
  const frame = parseFrame(line);
  if (frame !== undefined) sink.receive(frame);
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  const settled = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return settled;
}

/** Every failure of this transport is the connection's: the pipes are shared by all calls. */
function connectionLost(message: string, cause?: unknown): TransportError {
  return new TransportError(message, { cause, connectionLost: true });
}
