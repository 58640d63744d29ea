/**
 * One replica of the demo engine for a scale-out deployment (docs/deployment.md): stateful
 * HTTP sessions, cancels and per-caller rate limits shared through Redis, behind a load
 * balancer whose address is trusted for X-Forwarded-For.
 *   node dist/docs/examples/scale-out/replica.js --port 0 --redis redis://127.0.0.1:6379 \
 *     --trusted-proxy 127.0.0.1 --burst 100 --per-second 50
 * `--redis` also takes a unix socket path. `--trace` writes `ran <id>` and `aborted <id>`
 * lines on stderr, for tests that follow requests across replicas. The first stdout line is
 * the base URL.
 */
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { listen } from "@rcp-gen/runtime/node";
import { redisState } from "@rcp-gen/runtime/redis";
import type { Interceptor, ServerCall } from "@rcp-gen/runtime";
import { createServer } from "../../../generated/server.js";
import { demoCapabilities } from "../demo-engine/capabilities.js";
import { DemoEngine } from "../demo-engine/engine.js";
import { DEMO_SERVER_INFO, demoHandlers } from "../demo-engine/server.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    redis: { type: "string", default: "redis://127.0.0.1:6379" },
    "trusted-proxy": { type: "string", multiple: true, default: [] },
    burst: { type: "string", default: "100" },
    "per-second": { type: "string", default: "50" },
    trace: { type: "boolean", default: false },
  },
});

const address = values.redis;
// Fail fast while Redis is down rather than queue requests behind the outage. No auto-pipelining:
// a request makes one call, and batching calls costs ioredis more CPU than the writes it saves.
const clientOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1000,
  // connect() below resolves once the client is ready, so the first request finds Redis there.
  lazyConnect: true,
};
const client = address.startsWith("/")
  ? new Redis({ path: address, ...clientOptions })
  : new Redis(address, clientOptions);
// Reported by the server, one line per outage, when a call fails.
client.on("error", () => {});
await client.connect();
const state = redisState({ client });

/** Follows each handler call on stderr: the test asserts no id runs twice and that cancels arrive. */
const trace: Interceptor<ServerCall> = (next) => (call) => {
  process.stderr.write(`ran ${JSON.stringify(call.id)}\n`);
  call.ctx.signal.addEventListener("abort", () => process.stderr.write(`aborted ${JSON.stringify(call.id)}\n`));
  return next(call);
};

const server = createServer({
  info: DEMO_SERVER_INFO,
  capabilities: demoCapabilities(),
  conformance: "L2",
  handlers: demoHandlers(new DemoEngine()),
  http: { sessions: "stateful", trustedProxies: values["trusted-proxy"] },
  rateLimit: { burst: Number(values.burst), perSecond: Number(values["per-second"]) },
  state,
  interceptors: values.trace ? [trace] : [],
});

const listening = await listen(server, { port: Number(values.port) });
process.stdout.write(`${listening.url}\n`);
const stop = (): void =>
  void Promise.all([listening.close(), state.close()]).then(() => {
    client.disconnect();
    process.exit(0);
  });
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
