/** The bridge as an MCP host runs it: `rcp-gen mcp -- <engine>`, a child process. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { entryPath } from "../fixtures/entry.js";

export const RCP_GEN = fileURLToPath(new URL("../../generator/bin/rcp-gen.js", import.meta.url));
/** The demo engine, saying `handler aborted: <method>` on stderr when a call is cancelled. */
export const WATCHED_ENGINE = entryPath("test/mcp/watched-engine.ts");
export const ABORTED_LINE = "handler aborted: retrieve";

/** `rcp-gen mcp [extra...] -- node <watched engine>`: the command and arguments of the bridge. */
export function bridgeCommand(...extra: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [RCP_GEN, "mcp", ...extra, "--", process.execPath, WATCHED_ENGINE] };
}

/** The tools the demo engine advertises, sorted: what every MCP client must list. */
export const DEMO_TOOLS = [
  "embed",
  "embed_sparse",
  "index_add",
  "index_delete",
  "info",
  "query_transform",
  "rerank",
  "retrieve",
];

/** A filter on a field the demo does not advertise: valid by the schema, refused by the engine (-32602, §8). */
export const UNKNOWN_FIELD_FILTER = { field: "colour", op: "eq", value: "red" };

/** `_meta` that makes the demo sleep before every pipeline stage, so a call can be cancelled mid-flight. */
export const SLOW_META = { "x-demo-delayMs": 1500 };

/** Resolves once `text()` contains `needle`, polling; rejects after `ms`. */
export async function waitFor(text: () => string, needle: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!text().includes(needle)) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${JSON.stringify(needle)} in:\n${text()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A `rcp-gen mcp --listen 0` process in front of the watched engine: its URL and its stderr so far. */
export interface HttpBridge {
  readonly url: string;
  stderr(): string;
  close(): Promise<void>;
}

export async function startHttpBridge(...extra: string[]): Promise<HttpBridge> {
  const { command, args } = bridgeCommand("--listen", "0", ...extra);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await Promise.race([
      waitFor(() => stderr, "/mcp\n", 60_000),
      exited.then(() => Promise.reject(new Error(`rcp-gen mcp --listen exited:\n${stderr}`))),
    ]);
  } catch (error) {
    child.kill();
    throw error;
  }
  const url = /at (http:\/\/\S+\/mcp)\n/.exec(stderr)![1]!;
  return {
    url,
    stderr: () => stderr,
    async close() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
