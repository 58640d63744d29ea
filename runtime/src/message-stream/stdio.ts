/**
 * NDJSON over stdio (§5.1). stdout carries protocol frames only: while serving, console
 * output and anyone else's process.stdout.write go to stderr. A client that stops reading
 * costs bounded memory: reading stops too (no new requests), and frames wait in an
 * OutboundQueue that keeps every response and coalesces each request's progress. EOF or an
 * answered `shutdown` stops reading, lets in-flight requests finish and flushes their
 * responses (§7.12, §13.1).
 */
import type { Readable, Writable } from "node:stream";
import type { ServerCore } from "../server/core.js";
import type { AuthInfo } from "../protocol/request-origin.js";
import { NdjsonReader, ndjsonFrame } from "../framing/ndjson.js";
import { MessagePump } from "./pump.js";
import { OutboundQueue } from "../server/outbound-queue.js";

/** Options of `serveStdio`: the streams, the caller's identity, whether to exit at the end. */
export interface StdioOptions {
  input?: Readable;
  output?: Writable;
  /** Exit the process once done (default: true when serving the real process.stdout). */
  exit?: boolean;
  /**
   * Who the client is: the process that started this server. Handlers and interceptors see it
   * as `ctx.auth` (stdio has no authentication of its own, §5.1). Default: undefined.
   */
  auth?: AuthInfo;
}

const STDIO = Object.freeze({ kind: "stdio" as const });

export function serveStdio(core: ServerCore, options: StdioOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const ownsStdout = output === process.stdout;
  const restoreStdout = ownsStdout ? divertStdout() : undefined;
  const write = restoreStdout?.write ?? ((text: string) => output.write(text));
  let finishing: Promise<void> | undefined;
  let resolveServed: () => void = () => {};
  const served = new Promise<void>((resolve) => (resolveServed = resolve));

  // Frames produced in one turn of the event loop (the answers to a chunk of pipelined
  // requests) leave in one write of their joined text, at the end of that turn: one syscall
  // and one buffer rather than one per frame, and a lone frame is not delayed.
  const batch = new WriteBatch(write, output);
  const queue = new OutboundQueue(
    { write: (text) => batch.write(text), onDrain: (listener) => batch.onDrain(listener) },
    {
      // No new requests while the client is behind: their answers would only wait here.
      onCongestion: (congested) => {
        if (congested) input.pause();
        else if (!pump.closing) input.resume();
      },
      report: (line) => core.diagnose(line),
    },
  );
  const pump = new MessagePump(
    core,
    {
      send: (frame) => queue.response(ndjsonFrame(frame)),
      sendNotification: (owner, frame, progress) => queue.notification(owner, ndjsonFrame(frame), progress),
      requestDone: (owner) => queue.requestDone(owner),
    },
    { auth: options.auth, transport: STDIO },
  );
  const reader = new NdjsonReader({
    maxLineBytes: core.limits.maxMessageBytes,
    onLine: (line) => pump.receive(line),
    onOversized: (bytes) => pump.rejectOversized(bytes),
    onNotUtf8: () => pump.rejectNotUtf8(),
  });
  const finish = (): Promise<void> =>
    (finishing ??= (async () => {
      input.off("data", onData);
      input.pause();
      await pump.settled();
      await queue.idle();
      batch.flush();
      await new Promise<void>((resolve) => output.write("", () => resolve()));
      restoreStdout?.restore();
      if (options.exit ?? ownsStdout) process.exit(0);
      resolveServed();
    })());
  const onData = (chunk: Buffer | string): void => {
    reader.push(chunk);
    if (pump.closing) void finish();
  };
  input.on("data", onData);
  input.once("end", () => {
    reader.end();
    pump.endInput();
    void finish();
  });
  // EPIPE: the client is gone, so nothing in flight can be answered (§13.1).
  output.once("error", () => {
    pump.abandon();
    queue.abandon();
    void finish();
  });
  return served;
}

/**
 * Joins the frames written in one turn of the event loop and writes them at its end (a
 * microtask), as one chunk. The sink of an OutboundQueue: a write says "behind" (false) once
 * this turn's text reaches BATCH_LIMIT, or while the stream itself waits to drain, so a burst of answers waits in the queue, as separate frames, rather than here as one
 * huge string. Drain listeners hear when the joined text went out or the stream drained.
 */
/**
 * Characters one turn may join before the queue holds the rest: room for the answers to a
 * chunk of 64 pipelined requests of a few hundred bytes each, far below a burst of thousands.
 */
const BATCH_LIMIT = 64 * 1024;

class WriteBatch {
  #text = "";
  #behind = false;
  #drainListeners: Array<() => void> = [];
  readonly #flush = (): void => this.flush();

  constructor(
    private readonly writeOut: (text: string) => boolean,
    private readonly output: Writable,
  ) {}

  write(text: string): boolean {
    if (this.#text === "") queueMicrotask(this.#flush);
    this.#text += text;
    return !this.#behind && this.#text.length < BATCH_LIMIT;
  }

  onDrain(listener: () => void): void {
    this.#drainListeners.push(listener);
  }

  flush(): void {
    const text = this.#text;
    if (text === "") return;
    this.#text = "";
    if (this.#behind) {
      this.writeOut(text);
    } else if (this.writeOut(text)) {
      this.#drained();
    } else {
      this.#behind = true;
      this.output.once("drain", () => {
        this.#behind = false;
        this.#drained();
      });
    }
  }

  #drained(): void {
    if (this.#drainListeners.length === 0) return;
    for (const listener of this.#drainListeners.splice(0)) listener();
  }
}

/**
 * Sends console.log/info/debug and foreign process.stdout.write calls to stderr, and
 * returns the real stdout writer for protocol frames plus a way to undo the diversion.
 */
function divertStdout(): { write: (text: string) => boolean; restore: () => void } {
  const stdout = process.stdout;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be put back as it was, and called with .call(stdout)
  const realWrite = stdout.write;
  const consoleMethods = { log: console.log, info: console.info, debug: console.debug };
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = console.info = console.debug = toStderr;
  stdout.write = ((...args: Parameters<typeof stdout.write>) =>
    (process.stderr.write as (...a: unknown[]) => boolean)(...args)) as typeof stdout.write;
  return {
    write: (text) => realWrite.call(stdout, text),
    restore: () => {
      stdout.write = realWrite;
      Object.assign(console, consoleMethods);
    },
  };
}
