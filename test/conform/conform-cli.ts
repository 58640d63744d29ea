/**
 * Running `rcp-gen conform` as a user does (the built CLI in a child process) and the servers
 * it tests: the demo engine, the broken fixture, the threshold engine, the reference example server, each over
 * stdio (a command the suite starts) or HTTP (a child process listening on port 0).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { DEMO_SERVE } from "../demo/demo-child.js";
import { freePort } from "../net/free-port.js";
import { repoRoot } from "../generator/run-cli.js";
import { entryPath } from "../fixtures/entry.js";

export const DEMO = [process.execPath, DEMO_SERVE];
export const BROKEN = [process.execPath, entryPath("test/fixtures/conform/broken-server.ts")];
/** An L1 engine that finds nothing for a query off its subject (stdio only). */
export const THRESHOLD = [process.execPath, entryPath("test/fixtures/conform/threshold-engine.ts")];

export interface ConformRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `rcp-gen conform` in `cwd` (default the repository root, whose package.json names the RCP/1 schema). */
export function runConform(args: readonly string[], cwd = repoRoot): Promise<ConformRun> {
  const child = spawn(process.execPath, [`${repoRoot}generator/bin/rcp-gen.js`, "conform", ...args], { cwd });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once("close", (status) => resolve({ status, stdout, stderr })));
}

export interface HttpChild {
  url: string;
  stop(): Promise<void>;
}

/** Starts a server process whose first stdout line is its base URL (the demo's serve.js, the fixture). */
export async function startHttpChild(command: readonly string[], cwd = repoRoot): Promise<HttpChild> {
  const [program, ...args] = command;
  const child = spawn(program!, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${command.join(" ")} exited with ${code} before listening`)));
  });
  return { url, stop: () => stop(child) };
}

/** Starts a server on a port of our choosing (for servers that cannot listen on port 0), once it accepts connections. */
export async function startOnPort(command: (port: number) => readonly string[], cwd: string): Promise<HttpChild> {
  const port = await freePort();
  const [program, ...args] = command(port);
  const child = spawn(program!, args, { cwd, stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${port}/rcp`;
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(url, { method: "POST", body: '{"jsonrpc":"2.0","id":0,"method":"ping"}' });
      break;
    } catch (error) {
      if (attempt > 100 || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { url, stop: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export interface JsonReport {
  certifiedLevel: string | null;
  declaredLevel: unknown;
  declarationHolds: boolean;
  counts: Record<string, number>;
  checks: Array<{
    id: string;
    section: string;
    level: string;
    must: boolean;
    title: string;
    status: string;
    detail?: string;
  }>;
}

export function failing(report: JsonReport, level = "L0"): string[] {
  return report.checks.filter((check) => check.level === level && check.status === "fail").map((check) => check.id);
}
