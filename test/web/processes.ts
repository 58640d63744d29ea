/**
 * Servers in their own processes for the browser and edge tests: a command that prints its URL
 * as the first stdout line, given a stdin pipe that it watches (the edge hosts exit when it
 * ends), stopped with SIGKILL of its process group once a test file is done.
 */
import { spawn } from "node:child_process";

export interface UrlProcess {
  /** The first line the process printed. */
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

export function startUrlProcess(
  command: string,
  args: readonly string[],
  timeoutMs = 20_000,
  cwd?: string,
): Promise<UrlProcess> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], detached: true, cwd });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    await exited;
  };
  const what = [command, ...args].join(" ");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${what} printed no URL within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${what} exited before printing its URL; stderr:\n${stderr}`));
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const newline = stdout.indexOf("\n");
      if (newline === -1) return;
      clearTimeout(timer);
      resolve({ url: stdout.slice(0, newline).trim(), stderr: () => stderr, stop });
    });
  });
}
