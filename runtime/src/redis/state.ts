/**
 * Sessions, cancel relay and rate limiter on Redis (../state/types.ts), for replicas behind
 * a load balancer. Sessions are keys that expire with their idle window (a Redis TTL,
 * restarted by every request: one GETEX); cancels are published on one channel that every
 * replica subscribes to; each rate-limit take is one Lua script, so replicas draw from the
 * same bucket atomically. A session's request that is rate limited by its session does both in
 * one script (touchAndTake): one round trip per request. Errors are not handled here: a rejected call tells the server the
 * store is unreachable, and it decides per feature (docs/deployment.md).
 */
import { once } from "node:events";
import type { Redis } from "ioredis";
import type { RequestId } from "../protocol/types.js";
import type {
  BucketTake,
  CancelRelay,
  RateLimit,
  RateLimiter,
  ServerState,
  SessionRecord,
  SessionStore,
  TouchedAndTaken,
} from "../state/types.js";

export interface RedisStateOptions {
  /**
   * An ioredis client. Create it with `enableOfflineQueue: false` (and a `commandTimeout`), so
   * that while Redis is down calls fail at once instead of queueing behind the outage.
   * `redisState` duplicates it once, for the cancel subscription.
   */
  client: Redis;
  /** Prefix of every key and of the cancel channel, so several servers can share one Redis. Default `rcp:`. */
  prefix?: string;
}

export interface RedisState extends ServerState {
  readonly sessions: SessionStore;
  readonly cancels: CancelRelay;
  readonly rateLimiter: RateLimiter;
  /** Closes the cancel subscription; the client passed in stays the caller's to close. */
  close(): Promise<void>;
}

const DEFAULT_PREFIX = "rcp:";
/** Rate-limit buckets outlive their refill by this much; a bucket refilling for longer than a day is dropped early (full). */
const BUCKET_SLACK_MS = 1000;
const MAX_BUCKET_TTL_MS = 86_400_000;

/**
 * Lua that takes `cost` tokens from the bucket at `key` into `wait`: 0 when they were taken, else
 * the milliseconds until they would be there. Redis' own clock, so replicas' clocks do not matter.
 */
const takeTokens = (key: string, burst: string, perSecond: string, cost: string): string => `
local burst = tonumber(${burst})
local perMs = tonumber(${perSecond}) / 1000
local cost = tonumber(${cost})
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local kept = redis.call('HMGET', ${key}, 'tokens', 'at')
local tokens = tonumber(kept[1])
if tokens == nil then
  tokens = burst
else
  tokens = math.min(burst, tokens + (now - tonumber(kept[2])) * perMs)
end
local wait = 0
if tokens >= cost then tokens = tokens - cost else wait = math.ceil((cost - tokens) / perMs) end
redis.call('HSET', ${key}, 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', ${key}, math.min(math.ceil((burst - tokens) / perMs) + ${BUCKET_SLACK_MS}, ${MAX_BUCKET_TTL_MS}))
`;

/** KEYS[1] the bucket; ARGV burst, perSecond, cost. Returns the wait. */
const TAKE_TOKENS = `${takeTokens("KEYS[1]", "ARGV[1]", "ARGV[2]", "ARGV[3]")}
return wait
`;

/**
 * KEYS[1] the session, KEYS[2] its bucket; ARGV idleMs, burst, perSecond, cost. Returns nil for
 * an unknown session (nothing taken), else its record and the wait: one round trip per request.
 */
const TOUCH_AND_TAKE = `
local record = redis.call('GETEX', KEYS[1], 'PX', ARGV[1])
if not record then return false end
${takeTokens("KEYS[2]", "ARGV[2]", "ARGV[3]", "ARGV[4]")}
return {record, wait}
`;

interface WithScripts {
  rcpTakeTokens(key: string, burst: number, perSecond: number, cost: number): Promise<number>;
  rcpTouchAndTake(
    session: string,
    bucket: string,
    idleMs: number,
    burst: number,
    perSecond: number,
    cost: number,
  ): Promise<[string, number] | null>;
}

export function redisState(options: RedisStateOptions): RedisState {
  const { client } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const sessionKey = (token: string): string => `${prefix}session:${token}`;
  const bucketKey = (bucket: string): string => `${prefix}rate:${bucket}`;
  const channel = `${prefix}cancel`;
  client.defineCommand("rcpTakeTokens", { numberOfKeys: 1, lua: TAKE_TOKENS });
  client.defineCommand("rcpTouchAndTake", { numberOfKeys: 2, lua: TOUCH_AND_TAKE });
  const scripts = client as unknown as WithScripts;

  const rateLimiter: RateLimiter = {
    take: (bucket: string, cost: number, limit: RateLimit): Promise<number> =>
      scripts.rcpTakeTokens(bucketKey(bucket), limit.burst, limit.perSecond, cost),
  };

  const sessions: SessionStore = {
    async create(token: string, record: SessionRecord, idleMs: number): Promise<boolean> {
      // NX: a token is never reused; a collision is refused rather than overwritten.
      return (await client.set(sessionKey(token), JSON.stringify(record), "PX", idleMs, "NX")) === "OK";
    },
    async touch(token: string, idleMs: number): Promise<SessionRecord | undefined> {
      const stored = await client.getex(sessionKey(token), "PX", idleMs);
      return stored === null ? undefined : (JSON.parse(stored) as SessionRecord);
    },
    async forget(token: string): Promise<void> {
      await client.del(sessionKey(token));
    },
    async touchAndTake(token: string, idleMs: number, { bucket, cost, limit }: BucketTake): Promise<TouchedAndTaken> {
      const touched = await scripts.rcpTouchAndTake(
        sessionKey(token),
        bucketKey(bucket),
        idleMs,
        limit.burst,
        limit.perSecond,
        cost,
      );
      return touched === null ? {} : { record: JSON.parse(touched[0]) as SessionRecord, wait: touched[1] };
    },
    rateLimiter,
  };

  const deliverers: Array<(token: string, id: RequestId) => void> = [];
  let subscriber: Redis | undefined;
  const cancels: CancelRelay = {
    async publish(token: string, id: RequestId): Promise<void> {
      await client.publish(channel, JSON.stringify([token, id]));
    },
    async subscribe(deliver: (token: string, id: RequestId) => void): Promise<void> {
      deliverers.push(deliver);
      if (subscriber !== undefined) return;
      // Connecting now even when the client was made with lazyConnect (and connected by its owner).
      const listening = client.duplicate({ lazyConnect: false });
      subscriber = listening;
      // ioredis reconnects and subscribes again by itself; its errors are the outage the client reports.
      listening.on("error", () => {});
      listening.on("message", (_channel: string, text: string) => {
        const [token, id] = JSON.parse(text) as [string, RequestId];
        for (const each of deliverers) each(token, id);
      });
      if (listening.status !== "ready") await once(listening, "ready");
      await listening.subscribe(channel);
    },
  };

  return {
    sessions,
    cancels,
    rateLimiter,
    close(): Promise<void> {
      subscriber?.disconnect();
      return Promise.resolve();
    },
  };
}
