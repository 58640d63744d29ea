/**
 * A strict reading of an SSE body as §5.2 frames it: each event is one `data:` line of
 * compact JSON, terminated by a blank line; comment lines (`:`) are keep-alives. Whatever
 * departs from that is listed, so checks can say exactly what was wrong.
 */

export interface SseReading {
  /** The JSON payload of each event, in order (undefined where it was not JSON). */
  readonly frames: unknown[];
  /** Departures from the framing, one line each. */
  readonly faults: string[];
}

export function readSse(body: string): SseReading {
  const frames: unknown[] = [];
  const faults: string[] = [];
  const normalized = body.replace(/\r\n?/g, "\n");
  const blocks = normalized.split("\n\n");
  const tail = blocks.pop()!;
  if (tail.trim() !== "") faults.push(`the stream ends inside an event: ${JSON.stringify(tail.slice(0, 60))}`);
  blocks.forEach((block, index) => {
    const lines = block.split("\n").filter((line) => !line.startsWith(":") && line !== "");
    if (lines.length === 0) return;
    const data = lines.filter((line) => line.startsWith("data:"));
    const other = lines.filter((line) => !line.startsWith("data:"));
    if (other.length > 0)
      faults.push(`event ${index} has other fields: ${other.map((line) => JSON.stringify(line)).join(", ")}`);
    if (data.length !== 1) faults.push(`event ${index} has ${data.length} data lines, not one`);
    const payload = data.map((line) => line.slice("data:".length).replace(/^ /, "")).join("\n");
    try {
      frames.push(JSON.parse(payload));
    } catch {
      faults.push(`event ${index} carries no JSON: ${JSON.stringify(payload.slice(0, 60))}`);
      frames.push(undefined);
    }
  });
  return { frames, faults };
}
