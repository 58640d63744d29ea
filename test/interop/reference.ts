/**
 * The RCP reference implementations (MIT; a copy at ../shared/reference/rcp-ref, beside the
 * repository, with their known deviations listed in its README) as processes the interop
 * matrix talks to. A user's clone has no ../shared: the matrix then skips with one line. CI
 * always has it, so there (CI set) its absence fails instead of skipping.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { entryPath } from "../fixtures/entry.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const referenceDir = resolve(repoRoot, "../shared/reference/rcp-ref");
export const referencePresent = existsSync(join(referenceDir, "README.md"));

if (!referencePresent && process.env["CI"]) {
  throw new Error(`interop matrix: ${referenceDir} is missing; CI must provide ../shared (COMMON.md)`);
}

let announced = false;
/** Says once why the matrix does not run; the caller skips its suite. */
export function announceSkip(): void {
  if (announced) return;
  announced = true;
  console.info(
    `interop matrix skipped: no reference implementations at ${referenceDir} (../shared is not in this clone)`,
  );
}

export const PYTHON = "python3";

export const reference = {
  pythonExampleServer: join(referenceDir, "examples/example_server.py"),
  pythonStreamingExample: join(referenceDir, "examples/example_streaming.py"),
  nodeExampleServer: join(referenceDir, "sdk/node/examples/example_server.js"),
  pythonSdk: join(referenceDir, "sdk/python"),
  nodeSdk: join(referenceDir, "sdk/node/src/index.js"),
};

export { DEMO_SERVE };
export { freePort } from "../net/free-port.js";

/** A child process with its output kept for failure messages; `stop()` ends it. */
export interface Child {
  readonly process: ChildProcess;
  output(): string;
  stop(): void;
}

export function start(command: string, args: readonly string[], options: { cwd?: string } = {}): Child {
  const child = spawn(command, [...args], { cwd: options.cwd ?? referenceDir, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
  return { process: child, output: () => output, stop: () => void child.kill() };
}

/** Resolves once something accepts connections on 127.0.0.1:`port`. */
export async function listening(port: number, child: Child, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accepted = await new Promise<boolean>((done) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => done(socket.end() !== undefined));
      socket.once("error", () => done(false));
    });
    if (accepted) return;
    if (child.process.exitCode !== null || Date.now() > deadline) {
      throw new Error(`nothing listens on ${port}; the process said:\n${child.output()}`);
    }
    await new Promise((wait) => setTimeout(wait, 25));
  }
}

/** The demo engine over HTTP on an OS-chosen port (`flags` are serve's); its first stdout line is its base URL. */
export async function demoOverHttp(...flags: string[]): Promise<{ url: string; child: Child }> {
  const child = start(process.execPath, [DEMO_SERVE, "--port", "0", ...flags], { cwd: repoRoot });
  const deadline = Date.now() + 15_000;
  while (!child.output().includes("\n")) {
    if (child.process.exitCode !== null || Date.now() > deadline) throw new Error(`demo engine: ${child.output()}`);
    await new Promise((wait) => setTimeout(wait, 20));
  }
  return { url: child.output().split("\n", 1)[0]!.trim(), child };
}

/** One method's outcome: `ok` is typed as present, so reading it from a failed call fails the test. */
export interface Outcome<Result = unknown> {
  ok: Result;
  error?: { code: number; message: string };
}

/** What a reference driver printed (test/interop/drivers), typed where the tests read into it. */
export type Report = Record<string, Outcome> & {
  capabilities: string[];
  embed?: Outcome<number[][]>;
  "embed/sparse"?: Outcome<{ sparse: Array<{ indices: number[] }> }>;
  retrieve?: Outcome<{ hits: Array<{ id: string }> }>;
  info?: Outcome<{ server: unknown }>;
};

function drive(command: string, args: readonly string[]): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd: repoRoot });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("close", (code) =>
      code === 0 ? resolve(JSON.parse(stdout) as Report) : reject(new Error(`${command} exited ${code}:\n${stderr}`)),
    );
  });
}

/** The reference Python and Node clients, each driving the server `target` names: `["stdio", ...argv]` or `["http", url]`. */
export const DRIVERS = {
  python: (target: string[]) =>
    drive(PYTHON, [join(repoRoot, "test/interop/drivers/reference_client.py"), reference.pythonSdk, ...target]),
  node: (target: string[]) =>
    drive(process.execPath, [entryPath("test/interop/drivers/reference-node-client.ts"), reference.nodeSdk, ...target]),
};
