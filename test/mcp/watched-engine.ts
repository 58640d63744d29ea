/**
 * The demo engine over stdio, saying on stderr when a handler's signal aborts: how a test on
 * the MCP side of the bridge sees that cancelling an MCP call cancelled the RCP call behind it.
 */
import { serveStdio } from "@rcp-gen/runtime/node";
import { createServer } from "../../generated/server.js";
import { demoCapabilities } from "../../docs/examples/demo-engine/capabilities.js";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { DEMO_SERVER_INFO, demoHandlers } from "../../docs/examples/demo-engine/server.js";

const ABORTED_LINE = "handler aborted:";

const server = createServer({
  info: DEMO_SERVER_INFO,
  capabilities: demoCapabilities(),
  conformance: "L2",
  handlers: demoHandlers(new DemoEngine()),
  interceptors: [
    (next) => (call) => {
      call.ctx.signal.addEventListener("abort", () => process.stderr.write(`${ABORTED_LINE} ${call.method}\n`));
      return next(call);
    },
  ],
});
await serveStdio(server);
