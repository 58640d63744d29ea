/**
 * How a resumable stream held in this process reaches its reader (runtime/src/resume/streams.ts),
 * against an exchange whose client keeps up or falls behind on command: each frame is written
 * in the handler's own append, as a stream without resumption writes it (no turn of the event
 * loop between them); a client that falls behind gets nothing more until it drains, then every
 * frame it missed in order, then the live tail and the response.
 */
import { describe, expect, it } from "vitest";
import type { HttpExchange } from "../../runtime/src/http/exchange.js";
import { MemoryEventStore, type StoredEvent } from "../../runtime/src/resume/event-store.js";
import { ResumableStreams } from "../../runtime/src/resume/streams.js";

/** An exchange that records what is written, and says the client is behind while `behind` is set. */
function scriptedExchange() {
  const written: string[] = [];
  let drain: (() => void) | undefined;
  let ended = false;
  const exchange = {
    behind: false,
    write(text: string): boolean {
      written.push(text);
      return !exchange.behind;
    },
    onDrain(listener: () => void): void {
      drain = listener;
    },
    onAbort(): void {},
    end(): void {
      ended = true;
    },
  };
  return {
    exchange: exchange as typeof exchange & HttpExchange,
    /** The frames' data written so far, priming and `retry:` left out. */
    frames: () => written.flatMap((text) => /^id: [^\n]*:[1-9]\d*\ndata: (.*)\n\n$/.exec(text)?.[1] ?? []),
    drain(): void {
      exchange.behind = false;
      drain?.();
    },
    ended: () => ended,
  };
}

const control = { abandon() {}, cancel() {} };

describe("a resumable stream read in the process that runs it", () => {
  it("writes each frame in the append's own call, then ends after the response", async () => {
    const streams = new ResumableStreams({}, () => {});
    const producer = streams.start("owner", "bucket", control)!;
    const client = scriptedExchange();
    const served = streams.serve(client.exchange, producer.stream, { after: 0, keepAliveMs: 60_000, priming: true });
    producer.append("one", false);
    expect(client.frames()).toEqual(["one"]);
    producer.append("two", false);
    producer.append("done", true);
    expect(client.frames()).toEqual(["one", "two", "done"]);
    await served;
    expect(client.ended()).toBe(true);
  });

  it("a client that falls behind gets nothing more until it drains, then every frame it missed, in order, and the tail", async () => {
    const streams = new ResumableStreams({}, () => {});
    const producer = streams.start("owner", "bucket", control)!;
    const client = scriptedExchange();
    const served = streams.serve(client.exchange, producer.stream, { after: 0, keepAliveMs: 60_000, priming: true });
    client.exchange.behind = true;
    producer.append("one", false);
    producer.append("two", false);
    producer.append("three", false);
    // "one" was taken (the client then fell behind); the rest wait in the stream.
    expect(client.frames()).toEqual(["one"]);
    // The client catches up later, as a socket's drain comes in a later turn of the event loop.
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    await tick();
    expect(client.frames()).toEqual(["one"]);
    client.drain();
    await tick();
    expect(client.frames()).toEqual(["one", "two", "three"]);
    producer.append("done", true);
    expect(client.frames()).toEqual(["one", "two", "three", "done"]);
    await served;
    expect(client.ended()).toBe(true);
  });

  it("a shared store gets each frame in order, after the client has it: the client's write never waits for the store", async () => {
    const client = scriptedExchange();
    /** For each frame the store got: the frames the client had been written by then. */
    const clientHad: Array<[number, number]> = [];
    class RecordingStore extends MemoryEventStore {
      override append(...args: Parameters<MemoryEventStore["append"]>): void {
        clientHad.push([args[1].seq, client.frames().length]);
        super.append(...args);
      }
    }
    const store = new RecordingStore();
    const streams = new ResumableStreams({ store }, () => {});
    const producer = streams.start("owner", "bucket", control)!;
    const served = streams.serve(client.exchange, producer.stream, { after: 0, keepAliveMs: 60_000, priming: true });
    producer.append("one", false);
    producer.append("two", false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    producer.append("done", true);
    await served;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(clientHad).toEqual([
      [1, 2],
      [2, 2],
      [3, 3],
    ]);
    const stored: StoredEvent[] = [];
    for await (const event of store.read(producer.stream, 0, new AbortController().signal)) stored.push(event);
    expect(stored.map((event) => event.data)).toEqual(["one", "two", "done"]);
  });
});
