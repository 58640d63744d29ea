/** The hardening fixture server as a real child process: over stdio, or listening on 127.0.0.1. */
import { spawn } from "node:child_process";
import { StdioChild } from "../runtime/server/helpers/stdio-child.js";
import { entryPath } from "../fixtures/entry.js";

export const HARDENING_SERVER = entryPath("test/fixtures/hardening/hardening-server.ts");

export function hardeningStdio(options: object = {}): Promise<StdioChild> {
  return StdioChild.initialized(options, {}, HARDENING_SERVER);
}

export interface HttpServerChild {
  url: string;
  /** The listening port on 127.0.0.1, for raw sockets. */
  port: number;
  stderr(): string;
  /** Resolves with the exit code if the process dies; stays pending while it is up. */
  readonly exited: Promise<number | null>;
  stop(): void;
}

export function hardeningHttp(options: object = {}): Promise<HttpServerChild> {
  const child = spawn(process.execPath, [HARDENING_SERVER, "http"], {
    env: { ...process.env, RCP_FIXTURE_OPTIONS: JSON.stringify(options) },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`hardening server exited ${code}: ${stderr}`)));
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      const newline = stdout.indexOf("\n");
      if (newline === -1) return;
      const { url } = JSON.parse(stdout.slice(0, newline)) as { url: string };
      resolve({ url, port: Number(new URL(url).port), stderr: () => stderr, exited, stop: () => void child.kill() });
    });
  });
}
