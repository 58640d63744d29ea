/** `rcp-gen inspect` as a user starts it: the built CLI in its own process, its URL read from stdout. */
import { join } from "node:path";
import { repoRoot } from "../generator/run-cli.js";
import { startUrlProcess, type UrlProcess } from "../web/processes.js";

const CLI = join(repoRoot, "generator", "dist", "cli", "main.js");

export interface Inspector extends UrlProcess {
  /** performance.now() when the URL was printed: the server had just started listening. */
  readonly printedAt: number;
  readonly token: string;
  /** The origin the page is served from, e.g. http://127.0.0.1:41234. */
  readonly origin: string;
}

export async function startInspector(...args: string[]): Promise<Inspector> {
  const started = await startUrlProcess(process.execPath, [CLI, "inspect", ...args], 40_000);
  const printedAt = performance.now();
  const url = new URL(started.url);
  return { ...started, printedAt, token: url.searchParams.get("token") ?? "", origin: url.origin };
}
