/**
 * Sessions, cancel relay and rate limiter on Redis (../state/types.ts), for replicas behind
 * a load balancer. Sessions are keys that expire with their idle window (a Redis TTL,
 * restarted by every request: one GETEX); cancels are published on one channel that every
 * replica subscribes to; each rate-limit take is one Lua script, so replicas draw from the
 * same bucket atomically. Errors are not handled here: a rejected call tells the server the
 * store is unreachable, and it decides per feature (docs/deployment.md).
 */
import { once } from "node:events";
import type { Redis } from "ioredis";
import type { RequestId } from "../protocol/types.js";
import type {
  CancelRelay,
  RateLimit,
  RateLimiter,
  ServerState,
  SessionRecord,
  SessionStore,
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
 * KEYS[1] the bucket; ARGV burst, perSecond, cost. Returns 0 when the tokens were taken, else
 * the milliseconds until they would be there. Redis' own clock, so replicas' clocks do not matter.
 */
const TAKE_TOKENS = `
local burst = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local kept = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(kept[1])
if tokens == nil then
  tokens = burst
else
  tokens = math.min(burst, tokens + (now - tonumber(kept[2])) * perMs)
end
local wait = 0
if tokens >= cost then tokens = tokens - cost else wait = math.ceil((cost - tokens) / perMs) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.min(math.ceil((burst - tokens) / perMs) + ${BUCKET_SLACK_MS}, ${MAX_BUCKET_TTL_MS}))
return wait
`;

interface WithTakeTokens {
  rcpTakeTokens(key: string, burst: number, perSecond: number, cost: number): Promise<number>;
}

export function redisState(options: RedisStateOptions): RedisState {
  const { client } = options;
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const sessionKey = (token: string): string => `${prefix}session:${token}`;
  const channel = `${prefix}cancel`;
  client.defineCommand("rcpTakeTokens", { numberOfKeys: 1, lua: TAKE_TOKENS });
  const limited = client as unknown as WithTakeTokens;

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
      const listening = client.duplicate();
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

  const rateLimiter: RateLimiter = {
    take: (key: string, cost: number, limit: RateLimit): Promise<number> =>
      limited.rcpTakeTokens(`${prefix}rate:${key}`, limit.burst, limit.perSecond, cost),
  };

  return {
    sessions,
    cancels,
    rateLimiter,
    async close(): Promise<void> {
      subscriber?.disconnect();
    },
  };
}
