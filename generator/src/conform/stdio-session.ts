/**
 * A Session over a server's stdio (§5.1). Whether something went unanswered is learned with
 * a barrier: a ping sent after it, whose answer means the server has read it; a short grace
 * after that catches a late answer from a server that works concurrently.
 */
import { isFrame, isResponse, type Exchange, type Frame, type Ledger, type Session } from "./session.js";
import type { StdioWire } from "./wire/stdio-wire.js";

const GRACE_MS = 40;

export class StdioSession implements Session {
  readonly transport = "stdio";
  #barriers = 0;

  constructor(
    readonly wire: StdioWire,
    private readonly ledger: Ledger,
    private readonly timeoutMs: number,
  ) {
    ledger.stdoutLogs.push(() => wire.lines.map((line) => line.frame ?? line.text));
  }

  async call(frame: Frame): Promise<Exchange> {
    const mark = this.wire.lines.length;
    await this.#send(frame);
    const answer = await this.wire.waitFor(
      (line) => isResponse(line.frame) && sameId(line.frame.id, frame.id),
      mark,
      this.timeoutMs,
    );
    const upTo = answer === undefined ? this.wire.lines.length : this.wire.lines.indexOf(answer);
    const meanwhile = this.wire.lines.slice(mark, upTo).map((line) => line.frame);
    const notifications = meanwhile.filter(
      (value): value is Frame => isFrame(value) && !("id" in value) && typeof value.method === "string",
    );
    return {
      ...(answer === undefined ? {} : { response: answer.frame as Frame }),
      notifications,
      strays: meanwhile.filter((value) => !notifications.includes(value as Frame)),
    };
  }

  async unanswered(payload: unknown): Promise<{ answers: unknown[] }> {
    return { answers: await this.#answersTo(JSON.stringify(payload), payload) };
  }

  async batch(frames: readonly unknown[]): Promise<{ reply: unknown }> {
    const mark = this.wire.lines.length;
    const hasRequests = frames.some((frame) => isFrame(frame) && "id" in frame);
    if (!hasRequests) return { reply: (await this.#answersTo(JSON.stringify(frames), frames))[0] };
    await this.#send(frames);
    const reply = await this.wire.waitFor(
      (line) => Array.isArray(line.frame) || (isResponse(line.frame) && line.frame.id === null),
      mark,
      this.timeoutMs,
    );
    return { reply: reply?.frame };
  }

  async raw(text: string): Promise<{ answers: unknown[] }> {
    return { answers: await this.#answersTo(text, undefined) };
  }

  async close(): Promise<void> {
    await this.wire.end(this.timeoutMs);
  }

  /** Writes `text` as one line, then a barrier; returns every frame in between. */
  async #answersTo(text: string, payload: unknown): Promise<unknown[]> {
    const mark = this.wire.lines.length;
    this.ledger.noteSent(payload);
    await this.wire.write(`${text}\n`);
    const barrier = { jsonrpc: "2.0", id: `conform-barrier-${++this.#barriers}`, method: "ping", params: {} };
    await this.#send(barrier);
    const reached = await this.wire.waitFor(
      (line) => isResponse(line.frame) && line.frame.id === barrier.id,
      mark,
      this.timeoutMs,
    );
    await this.wire.settle(GRACE_MS);
    return this.wire.lines
      .slice(mark)
      .filter((line) => line !== reached)
      .map((line) => line.frame ?? line.text);
  }

  async #send(payload: unknown): Promise<void> {
    this.ledger.noteSent(payload);
    await this.wire.write(`${JSON.stringify(payload)}\n`);
  }
}

/** §4.7: the same JSON type and value. */
export function sameId(a: unknown, b: unknown): boolean {
  return typeof a === typeof b && a === b;
}
