/**
 * Resumable streams' frames on Redis Streams (../resume/event-store.ts), so a client that
 * reconnects to another replica is served there while the handler runs on the first. Each
 * stream is one Redis stream whose entry ids are `0-<seq>` (the server numbers frames; one
 * replica appends to a stream), trimmed by `XADD … MAXLEN`; its owner and its reader lease are
 * plain keys. Every key expires `ttlMs` after the stream's last frame (the lease sooner), so
 * nothing outlives a stream. A reader tails with `XREAD BLOCK` on a connection of its own;
 * cancels go out on one pub/sub channel.
 */
import { once } from "node:events";
import type { Redis } from "ioredis";
import type { EventStore, EventStoreLimits, StoredEvent } from "../resume/event-store.js";

export interface RedisEventStoreOptions {
  /**
   * An ioredis client (the same one `redisState` takes will do). The store duplicates it for
   * each reader that tails a stream, and once for the cancel subscription.
   */
  client: Redis;
  /** Prefix of every key and of the cancel channel. Default `rcp:`. */
  prefix?: string;
}

export interface RedisEventStore extends EventStore {
  /** Ends the cancel subscription and every tailing reader; the client passed in stays the caller's to close. */
  close(): Promise<void>;
}

/** How long one XREAD waits for a new frame before looking whether the stream still exists. */
const BLOCK_MS = 1000;
/** Frames read per XREAD. */
const READ_COUNT = 100;

export function redisEventStore(options: RedisEventStoreOptions): RedisEventStore {
  const { client } = options;
  const prefix = options.prefix ?? "rcp:";
  const framesKey = (stream: string): string => `${prefix}stream:${stream}`;
  const ownerKey = (stream: string): string => `${prefix}stream-owner:${stream}`;
  const leaseKey = (stream: string): string => `${prefix}stream-reader:${stream}`;
  const cancelChannel = `${prefix}stream-cancel`;
  const readers = new Set<Redis>();
  let subscriber: Redis | undefined;

  /** A connection of its own, ready: XREAD BLOCK holds it, and the shared client may have no offline queue. */
  async function connection(): Promise<Redis> {
    const own = client.duplicate({ lazyConnect: false, commandTimeout: BLOCK_MS + 5000 });
    if (own.status !== "ready") await once(own, "ready");
    return own;
  }

  return {
    async open(stream, owner, limits) {
      await client.set(ownerKey(stream), owner, "PX", limits.ttlMs);
    },

    async append(stream, event, limits: EventStoreLimits) {
      const fields = event.final ? ["d", event.data, "f", "1"] : ["d", event.data];
      await client
        .multi()
        .xadd(framesKey(stream), "MAXLEN", String(limits.maxFrames), `0-${event.seq}`, ...fields)
        .pexpire(framesKey(stream), limits.ttlMs)
        .pexpire(ownerKey(stream), limits.ttlMs)
        .exec();
    },

    async owner(stream) {
      return (await client.get(ownerKey(stream))) ?? undefined;
    },

    async *read(stream, after, signal): AsyncIterable<StoredEvent> {
      const own = await connection();
      readers.add(own);
      const stop = (): void => own.disconnect();
      signal.addEventListener("abort", stop, { once: true });
      let last = after;
      try {
        while (!signal.aborted) {
          const reply = await own.xread(
            "COUNT",
            READ_COUNT,
            "BLOCK",
            BLOCK_MS,
            "STREAMS",
            framesKey(stream),
            `0-${last}`,
          );
          if (reply === null) {
            if ((await own.exists(ownerKey(stream))) === 0) return;
            continue;
          }
          for (const [entryId, fields] of reply[0]![1]) {
            const event = { seq: Number(entryId.slice(2)), data: fields[1]!, final: fields[3] === "1" };
            yield event;
            last = event.seq;
            if (event.final) return;
          }
        }
      } catch (error) {
        // Disconnected by the abort: the reader has gone, nothing to report.
        if (!signal.aborted) throw error;
      } finally {
        signal.removeEventListener("abort", stop);
        readers.delete(own);
        own.disconnect();
      }
    },

    async attach(stream, ms) {
      await client.set(leaseKey(stream), "1", "PX", Math.max(1, Math.ceil(ms)));
    },

    async attached(stream) {
      return (await client.exists(leaseKey(stream))) === 1;
    },

    async cancel(stream) {
      await client.publish(cancelChannel, stream);
    },

    async onCancel(listener) {
      if (subscriber === undefined) subscriber = await connection();
      subscriber.on("message", (channel: string, stream: string) => {
        if (channel === cancelChannel) listener(stream);
      });
      await subscriber.subscribe(cancelChannel);
    },

    close() {
      subscriber?.disconnect();
      for (const reader of readers) reader.disconnect();
      return Promise.resolve();
    },
  };
}
