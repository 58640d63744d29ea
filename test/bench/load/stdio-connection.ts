/**
 * The client end of a stdio server under test: spawns it, writes framed messages to its stdin,
 * hands each message it writes to stdout to `onMessage` as raw JSON text (parsing is left to the
 * caller, to keep the load generator cheap), and reads its self-reports from stderr.
 */
import type { ChildProcess } from "node:child_process";
import { spawnNode, waitForExit, type NodeChildOptions } from "../processes.js";
import { ProbeReader } from "../probe-reader.js";
import type { ProbeReport } from "../servers/probe.js";
import { frame, type Dialect } from "./dialects.js";

export interface ServerCommand {
  script: string;
  args?: string[];
  nodeFlags?: string[];
  env?: Record<string, string>;
}

export class StdioConnection {
  readonly child: ChildProcess;
  onMessage: (json: string) => void = () => {};
  /** Called after the messages of one chunk of the server's output were handed to onMessage. */
  onChunkRead: () => void = () => {};
  private buffered: Buffer = Buffer.alloc(0);
  private readonly probes: ProbeReader;

  constructor(
    command: ServerCommand,
    private readonly dialect: Dialect,
  ) {
    const options: NodeChildOptions = {
      script: command.script,
      args: command.args ?? [],
      nodeFlags: command.nodeFlags ?? [],
      env: command.env ?? {},
      ownGroup: false,
    };
    this.child = spawnNode(options);
    this.child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
    this.probes = new ProbeReader(this.child);
  }

  send(json: string): void {
    this.child.stdin?.write(frame(this.dialect, json));
  }

  /** Writes many messages as one chunk, as a client with a queue would. */
  sendMany(jsons: readonly string[]): void {
    this.child.stdin?.write(jsons.map((json) => frame(this.dialect, json)).join(""));
  }

  /** Sends the dialect's handshake and resolves once every answered message has its answer. */
  async handshake(timeoutMs: number): Promise<void> {
    for (const step of this.dialect.handshake) {
      const answered = step.answered ? this.nextMessage(timeoutMs) : Promise.resolve("");
      this.send(JSON.stringify(step.message));
      const answer = await answered;
      if (step.answered && !answer.includes('"result"')) throw new Error(`handshake refused: ${answer.slice(0, 300)}`);
    }
  }

  nextMessage(timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const fail = (why: string): void => {
        clearTimeout(timer);
        this.child.off("exit", onExit);
        this.onMessage = () => {};
        reject(new Error(`${why}; stderr: ${this.stderr()}`));
      };
      const onExit = (code: number | null, signal: string | null): void =>
        fail(`server exited (${code ?? signal}) before answering`);
      const timer = setTimeout(() => fail(`no message within ${timeoutMs} ms`), timeoutMs);
      this.child.once("exit", onExit);
      this.onMessage = (json) => {
        clearTimeout(timer);
        this.child.off("exit", onExit);
        this.onMessage = () => {};
        resolve(json);
      };
    });
  }

  /** Asks the server for its self-report (CPU, memory; GC first when it runs with --expose-gc). */
  probe(timeoutMs = 10_000): Promise<ProbeReport> {
    return this.probes.probe(timeoutMs);
  }

  /** Ends stdin (EOF is shutdown for every server here) and waits for the exit. */
  async close(graceMs = 5_000): Promise<void> {
    this.child.stdin?.end();
    await waitForExit(this.child, graceMs);
  }

  stderr(): string {
    return this.probes.stderr();
  }

  private receive(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    let start = 0;
    for (;;) {
      const message = this.dialect.framing === "ndjson" ? this.takeLine(start) : this.takeContent(start);
      if (!message) break;
      start = message.next;
      if (message.json.length > 0) this.onMessage(message.json);
    }
    this.buffered = this.buffered.subarray(start);
    this.onChunkRead();
  }

  private takeLine(start: number): { json: string; next: number } | undefined {
    const end = this.buffered.indexOf(10, start);
    if (end < 0) return undefined;
    return { json: this.buffered.toString("utf8", start, end).trim(), next: end + 1 };
  }

  private takeContent(start: number): { json: string; next: number } | undefined {
    const headerEnd = this.buffered.indexOf("\r\n\r\n", start);
    if (headerEnd < 0) return undefined;
    const length = Number(/Content-Length: (\d+)/i.exec(this.buffered.toString("latin1", start, headerEnd))?.[1]);
    const bodyStart = headerEnd + 4;
    if (this.buffered.length < bodyStart + length) return undefined;
    return { json: this.buffered.toString("utf8", bodyStart, bodyStart + length), next: bodyStart + length };
  }
}
