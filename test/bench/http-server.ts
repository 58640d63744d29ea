/** Starts an HTTP bench server as a child process and waits for the URL it announces on stdout. */
import type { ChildProcess } from "node:child_process";
import { ProbeReader } from "./probe-reader.js";
import { awaitLine, spawnNode, stopChild } from "./processes.js";

export interface RunningHttpServer {
  url: string;
  probes: ProbeReader;
  /** The server's process, to kill it under load. */
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startHttpServer(
  script: string,
  env: Record<string, string> = {},
  args: readonly string[] = [],
  nodeFlags: readonly string[] = [],
): Promise<RunningHttpServer> {
  const child = spawnNode({ script, env, args, nodeFlags });
  const probes = new ProbeReader(child);
  try {
    const url = await awaitLine(
      child.stdout!,
      (line) => {
        try {
          const announced = JSON.parse(line) as { ready?: boolean; url?: string };
          return announced.ready ? announced.url : undefined;
        } catch {
          return undefined;
        }
      },
      15_000,
    );
    return { url, probes, child, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw new Error(`${script} did not start: ${(error as Error).message}; stderr: ${probes.stderr()}`, {
      cause: error,
    });
  }
}
