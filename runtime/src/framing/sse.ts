/** Server-Sent Events framing for the HTTP streaming path (§5.2, §9). */

/** One frame: a single `data:` line carrying compact JSON (never containing a newline), then a blank line. */
export function sseFrame(json: string): string {
  return `data: ${json}\n\n`;
}

/** A comment line: ignored by SSE parsers, it keeps proxies from timing out a silent stream. */
export const SSE_KEEP_ALIVE = ":\n\n";

/** Headers of a streamed response: no caching, no proxy buffering, no compression. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
});
