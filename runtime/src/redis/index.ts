/**
 * `@rcp-gen/runtime/redis`: state shared between replicas on Redis, through ioredis (an
 * optional peer dependency: install it only with this entry). Pass `redisState` as the server's
 * `state`, and `redisEventStore` as `http.resumable.store` for resumable streams.
 */
export { redisState, type RedisState, type RedisStateOptions } from "./state.js";
export { redisEventStore, type RedisEventStore, type RedisEventStoreOptions } from "./event-store.js";
