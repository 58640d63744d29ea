/**
 * The page's side of the inspector's API. The session token comes from the page itself (the
 * server wrote it in a meta tag of the page it served at the URL that held it) and goes with
 * every request: as a header on fetches, in the query for the frames' EventSource.
 */
import type { CallEvent, ConformReport, FrameVerdict, RecordedFrame, SessionView } from "../messages.js";

const token = document.querySelector<HTMLMetaElement>('meta[name="rcp-inspector-token"]')?.content ?? "";
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

async function json<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const value = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(value.error?.message ?? `${path}: HTTP ${response.status}`);
  return value;
}

export const session = (): Promise<SessionView> => json("/api/session");
export const validate = (text: string): Promise<FrameVerdict> => json("/api/validate", { text });
export const cancel = (callId: string): Promise<{ cancelled: boolean }> => json("/api/cancel", { callId });
export const runConform = (): Promise<ConformReport> => json("/api/conform", {});

/** The last conformance report, if one was run since the inspector started. */
export const lastConform = (): Promise<ConformReport | null> => json("/api/conform");

/** Calls `method` through the inspector's client; each event of the call as it arrives. */
export async function call(method: string, params: unknown, onEvent: (event: CallEvent) => void): Promise<void> {
  const response = await fetch("/api/call", { method: "POST", headers, body: JSON.stringify({ method, params }) });
  if (!response.ok || response.body === null) throw new Error(`/api/call: HTTP ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf("\n")) !== -1) {
      onEvent(JSON.parse(buffered.slice(0, newline)) as CallEvent);
      buffered = buffered.slice(newline + 1);
    }
  }
}

/** Every frame of the engine connection, those so far first. */
export function frames(onFrame: (frame: RecordedFrame) => void): EventSource {
  const source = new EventSource(`/api/frames?token=${encodeURIComponent(token)}`);
  source.onmessage = (message: MessageEvent<string>) => onFrame(JSON.parse(message.data) as RecordedFrame);
  return source;
}
