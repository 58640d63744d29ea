/**
 * The hardening server as the fuzzer's victim: a child process started with --expose-gc so
 * its heap can be measured after a collection, over stdio (every stdout line recorded) or
 * listening on 127.0.0.1. Fuzz server limits are small so every kind of answer is reachable
 * quickly: short deadlines (-32014), a low in-flight cap (-32011), small batches (-32013).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const FUZZ_LIMITS = { maxBatchSize: 8, maxInFlight: 8, defaultDeadlineMs: 250, maxMessageBytes: 64 * 1024 };

/** This file runs from test/fuzz under vitest and from dist/test/fuzz under `npm run fuzz`; the server is always compiled. */
const here = fileURLToPath(new URL(".", import.meta.url));
const root = resolve(here, here.includes(`${sep}dist${sep}`) ? "../../.." : "../..");
const SERVER = join(root, "dist/test/fixtures/hardening/hardening-server.js");

export class ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = "";
  exitCode: number | null | undefined;
  #partial = "";
  #onLine: (() => void) | undefined;

  constructor(mode: "stdio" | "http") {
    this.child = spawn(process.execPath, ["--expose-gc", SERVER, mode], {
      env: { ...process.env, RCP_FIXTURE_OPTIONS: JSON.stringify({ limits: FUZZ_LIMITS }) },
    });
    // Writing to a server that died is reported by the campaign, not thrown as EPIPE here.
    this.child.stdin.on("error", () => {});
    this.child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const parts = (this.#partial + text).split("\n");
      this.#partial = parts.pop()!;
      this.lines.push(...parts);
      this.#onLine?.();
    });
    this.child.stderr.setEncoding("utf8").on("data", (text: string) => {
      // Bounded: the noisy handlers write here on every call.
      this.stderr = (this.stderr + text).slice(-20_000);
    });
    this.child.once("exit", (code) => {
      this.exitCode = code;
      this.#onLine?.();
    });
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  /** Resolves once `done()` holds, or after `timeoutMs`; true when it holds. */
  async until(done: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (!this.alive || Date.now() > deadline) return done();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(50, deadline - Date.now()));
        this.#onLine = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return true;
  }

  write(data: Buffer | string): void {
    this.child.stdin.write(data);
  }

  stop(): void {
    this.child.kill();
  }
}
