/** The fixture server in HTTP mode as a real child process on 127.0.0.1, and SSE reading helpers. */
import type { JsonObject } from "../../../../runtime/src/protocol/types.js";
import { spawnAnnounced } from "../../../fixtures/announced.js";
import { FIXTURE_SERVER, type Frame } from "./stdio-child.js";

export interface HttpChild {
  url: string;
  stderr: () => string;
  stderrIncludes(text: string, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export async function startHttpChild(options: object = {}): Promise<HttpChild> {
  const { child, url, stderr } = await spawnAnnounced(process.execPath, [FIXTURE_SERVER, "http"], {
    env: { ...process.env, RCP_FIXTURE_OPTIONS: JSON.stringify(options) },
  });
  return {
    url,
    stderr,
    async stderrIncludes(text, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!stderr().includes(text)) {
        if (Date.now() > deadline) throw new Error(`stderr never contained ${text}; got:\n${stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    stop: () => void child.kill(),
  };
}

export function rpc(id: unknown, method: string, params: object = {}): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

export function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers }, signal });
}

/** The JSON-RPC frame an HTTP response body carries, its result read as `Result`. */
export async function frameOf<Result = JsonObject>(response: Response): Promise<Frame<Result>> {
  return (await response.json()) as Frame<Result>;
}

export interface SseEvent {
  data: Frame;
  at: number;
}

/** Reads an SSE body chunk by chunk, timestamping each `data:` frame as it arrives. */
export async function readEvents(
  response: Response,
  onEvent?: (event: SseEvent) => void,
): Promise<{ events: SseEvent[]; comments: number }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: SseEvent[] = [];
  let buffer = "";
  let comments = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith(":")) comments++;
      else if (block.startsWith("data: ")) {
        const event = { data: JSON.parse(block.slice(6)) as Frame, at: performance.now() };
        events.push(event);
        onEvent?.(event);
      }
    }
  }
  return { events, comments };
}
