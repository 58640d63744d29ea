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

export function startInspector(...args: string[]): Promise<Inspector> {
  return startInspectorIn(undefined, ...args);
}

/** `rcp-gen inspect` run in `cwd`, a project whose settings it reads. */
export async function startInspectorIn(cwd: string | undefined, ...args: string[]): Promise<Inspector> {
  const started = await startUrlProcess(process.execPath, [CLI, "inspect", ...args], 40_000, cwd);
  const printedAt = performance.now();
  const url = new URL(started.url);
  return { ...started, printedAt, token: url.searchParams.get("token") ?? "", origin: url.origin };
}

/** A frame the inspector recorded on its engine connection, as its frames stream replays it. */
export interface RecordedFrame {
  readonly frame: { method?: string };
}

/** The frames the inspector's engine connection carried so far, read from its API. */
export async function recordedFrames(inspector: Inspector): Promise<RecordedFrame[]> {
  const controller = new AbortController();
  const response = await fetch(`${inspector.origin}/api/frames`, {
    headers: { authorization: `Bearer ${inspector.token}` },
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  // The frames so far are written at once; a short quiet spell means they have all come.
  for (;;) {
    const next = await Promise.race([reader.read(), new Promise<undefined>((quiet) => setTimeout(quiet, 300))]);
    if (next === undefined || next.done) break;
    text += next.value;
  }
  controller.abort();
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => JSON.parse(event.slice("data: ".length)) as RecordedFrame);
}
