/**
 * `@rcp-gen/runtime/redis`: state shared between replicas on Redis, through ioredis (an
 * optional peer dependency: install it only with this entry). Pass it as the server's `state`.
 */
export { redisState, type RedisState, type RedisStateOptions } from "./state.js";
