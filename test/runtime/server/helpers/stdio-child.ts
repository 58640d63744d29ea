/**
 * A fixture server spawned as a real child process, spoken to over its stdin/stdout as a
 * client would. Every stdout line is recorded in arrival order with its timestamp; a line
 * that is not JSON is kept as well, so tests can assert stdout stayed protocol-only.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { ErrorObject } from "../../../../runtime/src/protocol/errors.js";
import type { JsonObject } from "../../../../runtime/src/protocol/types.js";
import { entryPath } from "../../../fixtures/entry.js";

const fixture = (name: string) => entryPath(`test/fixtures/server/${name}.ts`);
/** Serves test/fixtures/test-protocol.ts with x-test handlers. */
export const FIXTURE_SERVER = fixture("fixture-server");
/** Serves the generated RCP/1 descriptor. */
export const GENERATED_SERVER = fixture("rcp-server");

/**
 * A frame as a test reads it. `params`, `result` and `error` are typed as present: a test reads
 * the member it expects, and reading an absent one (undefined) fails that test, as it should.
 */
export type Frame<Result = JsonObject, Params = JsonObject> = JsonObject & {
  id?: unknown;
  method?: string;
  params: Params;
  result: Result;
  error: ErrorObject;
};

export interface Arrival {
  line: string;
  frame: Frame | undefined;
  at: number;
}

export class StdioChild {
  readonly arrivals: Arrival[] = [];
  stderr = "";
  readonly exited: Promise<number | null>;
  readonly #process: ChildProcessWithoutNullStreams;
  #partial = "";
  #waiters: Array<() => void> = [];

  constructor(options: object = {}, script = FIXTURE_SERVER) {
    this.#process = spawn(process.execPath, [script, "stdio"], {
      env: { ...process.env, RCP_FIXTURE_OPTIONS: JSON.stringify(options) },
    });
    this.#process.stdout.setEncoding("utf8").on("data", (text: string) => this.#onStdout(text));
    this.#process.stderr.setEncoding("utf8").on("data", (text: string) => {
      this.stderr += text;
      this.#wake();
    });
    this.exited = new Promise((resolve) => this.#process.once("exit", (code) => resolve(code)));
  }

  static async initialized(options: object = {}, params: object = {}, script = FIXTURE_SERVER): Promise<StdioChild> {
    const child = new StdioChild(options, script);
    const reply = await child.request(
      "initialize",
      { protocolVersion: 1, client: { name: "t", version: "1" }, ...params },
      "init",
    );
    if (!reply.result) throw new Error(`initialize failed: ${JSON.stringify(reply)}`);
    return child;
  }

  /** Writes one JSON message (or a raw string verbatim) followed by a newline. */
  send(message: unknown): void {
    this.writeRaw((typeof message === "string" ? message : JSON.stringify(message)) + "\n");
  }

  writeRaw(data: string | Buffer): void {
    this.#process.stdin.write(data);
  }

  async request<Result = JsonObject>(
    method: string,
    params: object | undefined,
    id: string | number,
  ): Promise<Frame<Result>> {
    this.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    return this.response<Result>(id);
  }

  /** The response carrying `id`, its result read as `Result`. */
  async response<Result = JsonObject>(id: unknown, timeoutMs = 10_000): Promise<Frame<Result>> {
    const frame = await this.next((candidate) => candidate.id === id && candidate.method === undefined, timeoutMs);
    return frame as Frame<Result>;
  }

  /** Resolves with the first recorded frame matching `predicate`, waiting if needed. */
  async next(predicate: (frame: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.arrivals.find((arrival) => arrival.frame && predicate(arrival.frame));
      if (found) return found.frame!;
      if (Date.now() > deadline) {
        const exit = this.#process.exitCode ?? this.#process.signalCode;
        throw new Error(
          `no matching frame (child ${exit === null ? "running" : `exited: ${exit}`}); stdout so far:\n` +
            `${this.lines().join("\n")}\nstderr:\n${this.stderr}`,
        );
      }
      await this.#changed(deadline - Date.now());
    }
  }

  /** Waits until stderr contains `text`. */
  async stderrIncludes(text: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`stderr never contained ${text}; got:\n${this.stderr}`);
      await this.#changed(deadline - Date.now());
    }
  }

  frames(): Frame[] {
    return this.arrivals.flatMap((arrival) => (arrival.frame ? [arrival.frame] : []));
  }

  lines(): string[] {
    return this.arrivals.map((arrival) => arrival.line);
  }

  /** Responses (frames with an id and no method) carrying this id. */
  responsesFor(id: unknown): Frame[] {
    return this.frames().filter((frame) => frame.method === undefined && frame.id === id);
  }

  endInput(): void {
    this.#process.stdin.end();
  }

  kill(): void {
    this.#process.kill();
  }

  #onStdout(text: string): void {
    const lines = (this.#partial + text).split("\n");
    this.#partial = lines.pop()!;
    for (const line of lines) {
      let frame: Frame | undefined;
      try {
        frame = JSON.parse(line) as Frame;
      } catch {
        frame = undefined;
      }
      this.arrivals.push({ line, frame, at: performance.now() });
    }
    this.#wake();
  }

  #changed(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(timeoutMs, 0));
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}
