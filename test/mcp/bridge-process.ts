/** The bridge as an MCP host runs it: `rcp-gen mcp -- <engine>`, a child process. */
import { fileURLToPath } from "node:url";

export const RCP_GEN = fileURLToPath(new URL("../../generator/bin/rcp-gen.js", import.meta.url));
/** The demo engine, saying `handler aborted: <method>` on stderr when a call is cancelled. */
export const WATCHED_ENGINE = fileURLToPath(new URL("../../dist/test/mcp/watched-engine.js", import.meta.url));
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
