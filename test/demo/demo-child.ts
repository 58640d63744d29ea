/**
 * The demo engine as the user runs it: serve.ts in a child process (../fixtures/entry.ts), reached
 * through the generated client over stdio, or fed raw NDJSON lines for wire-level checks.
 */
import { spawn } from "node:child_process";
import { connectStdio, type RcpClient } from "../../generated/index.js";
import { entryPath } from "../fixtures/entry.js";

export const DEMO_SERVE = entryPath("docs/examples/demo-engine/serve.ts");

export function connectDemo(...serveArgs: string[]): Promise<RcpClient> {
  return connectStdio({
    clientInfo: { name: "demo-tests", version: "0.0.0" },
    capabilities: { streaming: {}, log: {} },
    transport: { command: process.execPath, args: [DEMO_SERVE, "--stdio", ...serveArgs], stderr: "pipe" },
  });
}

/** Writes `frames` as NDJSON, closes stdin (EOF is shutdown, §5.1) and returns every stdout frame, parsed. */
export async function rawSession(frames: readonly unknown[]): Promise<Array<Record<string, unknown>>> {
  const child = spawn(process.execPath, [DEMO_SERVE, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // "close", not "exit": it fires only after stdout has been read to its end.
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  child.stdin.end(frames.map((frame) => (typeof frame === "string" ? frame : JSON.stringify(frame)) + "\n").join(""));
  const timer = setTimeout(() => child.kill(), 20_000);
  const code = await exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`demo engine exited with ${code} after EOF\nstdout: ${stdout}\nstderr: ${stderr}`);
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
