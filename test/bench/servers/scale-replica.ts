/**
 * Scenario 13's engine: the demo engine with stateful sessions and a per-caller rate limit, its
 * state in memory, or on Redis when BENCH_REDIS names a server (`redis://127.0.0.1:port`), as
 * each replica behind the load balancer runs it. BENCH_RATE_LIMIT=0 leaves the limiter out, so
 * a request's only round trip to Redis is its session lookup.
 */
import { Redis } from "ioredis";
import { listen } from "@rcp-gen/runtime/node";
import { redisState } from "@rcp-gen/runtime/redis";
import { createServer } from "../../../generated/server.js";
import { demoCapabilities } from "../../../docs/examples/demo-engine/capabilities.js";
import { DemoEngine } from "../../../docs/examples/demo-engine/engine.js";
import { DEMO_SERVER_INFO, demoHandlers } from "../../../docs/examples/demo-engine/server.js";
import { announceUrl } from "./announce.js";
import { installProbe } from "./probe.js";

installProbe();
const address = process.env.BENCH_REDIS;
// The client options docs/deployment.md recommends.
const client =
  address === undefined
    ? undefined
    : new Redis(address, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1000,
        lazyConnect: true,
      });
await client?.connect();
const state = client === undefined ? undefined : redisState({ client });
// Never reached by the load: the limiter's cost is measured, not its refusals.
const rateLimit = process.env.BENCH_RATE_LIMIT === "0" ? undefined : { burst: 1e9, perSecond: 1e9 };
const server = createServer({
  info: DEMO_SERVER_INFO,
  capabilities: demoCapabilities(),
  conformance: "L2",
  handlers: demoHandlers(new DemoEngine()),
  http: { sessions: "stateful", trustedProxies: ["127.0.0.1"] },
  ...(rateLimit === undefined ? {} : { rateLimit }),
  ...(state === undefined ? {} : { state }),
});
const listening = await listen(server, { port: 0 });
announceUrl(listening.url);
