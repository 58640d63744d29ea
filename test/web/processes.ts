/**
 * Servers in their own processes for the browser and edge tests: a command that prints its URL
 * as the first stdout line, given a stdin pipe that it watches (the edge hosts exit when it
 * ends), stopped with SIGKILL of its process group once a test file is done.
 */
import { spawnAnnounced } from "../fixtures/announced.js";

export interface UrlProcess {
  /** The first line the process printed. */
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startUrlProcess(
  command: string,
  args: readonly string[],
  timeoutMs = 20_000,
  cwd?: string,
): Promise<UrlProcess> {
  const { child, url, stderr, exited } = await spawnAnnounced(command, args, {
    detached: true,
    timeoutMs,
    ...(cwd === undefined ? {} : { cwd }),
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    await exited;
  };
  return { url, stderr, stop };
}
