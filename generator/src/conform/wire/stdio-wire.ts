/**
 * The raw stdio side of a server under test (§5.1): its stdin as bytes we choose (whole
 * lines, halves of lines, blank lines) and its stdout as a log of lines, each parsed or kept
 * as a stray line when it is not JSON, so checks can look at exactly what was on the wire.
 */
import { spawn, type ChildProcess } from "node:child_process";

export interface ReceivedLine {
  /** Parsed JSON, or undefined for a stray line. */
  readonly frame: unknown;
  readonly text: string;
}

export interface StdioCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
}

const KILL_AFTER_MS = 1000;

export class StdioWire {
  /** Every non-blank stdout line, in order. */
  readonly lines: ReceivedLine[] = [];
  readonly #child: ChildProcess;
  readonly #waiters = new Set<() => void>();
  readonly #exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = "";
  #exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(child: ChildProcess) {
    this.#child = child;
    let pending = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (pending + chunk).split("\n");
      pending = parts.pop()!;
      for (const line of parts) this.#receive(line.endsWith("\r") ? line.slice(0, -1) : line);
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      // Diagnostics only (§5.1); the tail is kept to explain a server that died.
      this.#stderr = (this.#stderr + chunk).slice(-4000);
    });
    child.stdin!.on("error", () => undefined);
    this.#exit = new Promise((resolve) =>
      child.once("close", (code, signal) => {
        if (pending !== "") this.#receive(pending);
        this.#exited = { code, signal };
        this.#notify();
        resolve(this.#exited);
      }),
    );
  }

  static async start(target: StdioCommand): Promise<StdioWire> {
    const child = spawn(target.command, [...target.args], { cwd: target.cwd, stdio: ["pipe", "pipe", "pipe"] });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) => reject(new Error(`cannot start ${target.command}: ${error.message}`)));
    });
    return new StdioWire(child);
  }

  get exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exited;
  }

  get stderrTail(): string {
    return this.#stderr;
  }

  /** Writes raw text to the server's stdin, respecting backpressure. */
  async write(text: string): Promise<void> {
    const stdin = this.#child.stdin!;
    if (this.#exited !== undefined || stdin.destroyed || stdin.writableEnded) return;
    if (!stdin.write(text)) await new Promise<void>((resolve) => stdin.once("drain", resolve));
  }

  /** The first line from `from` on that satisfies `test`, waiting up to `timeoutMs`. */
  async waitFor(
    test: (line: ReceivedLine) => boolean,
    from: number,
    timeoutMs: number,
  ): Promise<ReceivedLine | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (let index = from; ;) {
      for (; index < this.lines.length; index++) if (test(this.lines[index]!)) return this.lines[index];
      const left = deadline - Date.now();
      if (left <= 0 || this.#exited !== undefined) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  /** Waits `ms` while lines keep arriving (a grace period after a barrier). */
  settle(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  /** EOF on stdin (§5.1: an implicit shutdown); resolves with whether it exited within `timeoutMs`. */
  async end(timeoutMs: number): Promise<boolean> {
    this.#child.stdin!.end();
    const exited = await Promise.race([this.#exit.then(() => true), delay(timeoutMs).then(() => false)]);
    if (!exited) await this.kill();
    return exited;
  }

  async kill(): Promise<void> {
    if (this.#exited !== undefined) return;
    this.#child.kill("SIGTERM");
    if (!(await Promise.race([this.#exit.then(() => true), delay(KILL_AFTER_MS).then(() => false)])))
      this.#child.kill("SIGKILL");
    await this.#exit;
  }

  #receive(text: string): void {
    if (text.trim() === "") return;
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      frame = undefined;
    }
    this.lines.push({ frame, text });
    this.#notify();
  }

  #notify(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
