/**
 * Child processes of the bench: every one is tracked from spawn to exit and killed (with its
 * process group) when this process ends for any reason, so no server or load generator outlives
 * a run, even a failed one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

const live = new Set<ChildProcess>();

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

process.on("exit", () => {
  for (const child of live) killGroup(child);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => process.exit(130));
}

export interface NodeChildOptions {
  script: string;
  args?: readonly string[];
  nodeFlags?: readonly string[];
  env?: Record<string, string>;
  stderr?: "pipe" | "inherit";
  /**
   * Own process group (default): killing the child's group also kills what it spawned. A server
   * spawned by a load generator stays in the generator's group, so it dies with it.
   */
  ownGroup?: boolean;
  /** Another JavaScript runtime and its arguments before the script (`[deno, "run", "-A"]`); default: this node. */
  runtime?: readonly [string, ...string[]];
}

/** Spawns `node <script>` (or `options.runtime`'s command) with piped stdio. */
export function spawnNode(options: NodeChildOptions): ChildProcess {
  const [command, ...runtimeArgs] = options.runtime ?? [process.execPath];
  const child = spawn(
    command,
    [...runtimeArgs, ...(options.nodeFlags ?? []), options.script, ...(options.args ?? [])],
    {
      stdio: ["pipe", "pipe", options.stderr ?? "pipe"],
      env: { ...process.env, ...options.env },
      detached: options.ownGroup ?? true,
    },
  );
  return track(child);
}

/** Spawns another program (redis-server, haproxy) in its own process group, tracked like the node children. */
export function spawnProgram(command: string, args: readonly string[]): ChildProcess {
  return track(spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true }));
}

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once("exit", () => live.delete(child));
  return child;
}

/** Resolves when the child has exited; kills it (group) after graceMs of waiting. */
export function waitForExit(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => killGroup(child), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Asks a child to stop (SIGTERM), then kills it if it has not exited after graceMs. */
export async function stopChild(child: ChildProcess, graceMs = 2_000): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  await waitForExit(child, graceMs);
}

/** The first line of `stream` that `accept` maps to a value; rejects on timeout or end. */
export function awaitLine<T>(stream: Readable, accept: (line: string) => T | undefined, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    const finish = (error: Error | undefined, value?: T): void => {
      clearTimeout(timer);
      lines.off("line", onLine);
      lines.off("close", onClose);
      if (error) reject(error);
      else resolve(value as T);
    };
    const onLine = (line: string): void => {
      const value = accept(line);
      if (value !== undefined) finish(undefined, value);
    };
    const onClose = (): void => finish(new Error("stream ended before the expected line"));
    const timer = setTimeout(() => finish(new Error(`no expected line within ${timeoutMs} ms`)), timeoutMs);
    lines.on("line", onLine);
    lines.on("close", onClose);
  });
}

/** Runs `node <script>` to completion and parses the JSON it prints as its last stdout line. */
export async function runJsonChild<T>(options: NodeChildOptions & { timeoutMs: number }): Promise<T> {
  const child = spawnNode({ ...options, stderr: "inherit" });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  await waitForExit(child, options.timeoutMs);
  if (child.exitCode !== 0) {
    throw new Error(`${options.script} failed (exit ${child.exitCode ?? child.signalCode})`);
  }
  const last = output.trim().split("\n").pop() ?? "";
  return JSON.parse(last) as T;
}
