/**
 * The demo engine served over HTTP on 127.0.0.1 from the test's own process, with one server
 * interceptor that notes each handler call whose signal aborted and why: what the engine saw of
 * a cancel, for the tests to assert on the server side.
 */
import { listen } from "@rcp-gen/runtime/node";
import type { Interceptor, ServerCall } from "@rcp-gen/runtime";
import { createServer } from "../../generated/index.js";
import { demoCapabilities } from "../../docs/examples/demo-engine/capabilities.js";
import { DemoEngine } from "../../docs/examples/demo-engine/engine.js";
import { DEMO_SERVER_INFO, demoHandlers } from "../../docs/examples/demo-engine/server.js";

export interface AbortedCall {
  readonly method: string;
  /** The error the handler's signal aborted with: -32006 for a cancel (§7.14). */
  readonly code: number | undefined;
}

export interface ListeningDemo {
  readonly url: string;
  readonly aborted: readonly AbortedCall[];
  close(): Promise<void>;
}

export async function listenDemo(corsOrigins: readonly string[] = []): Promise<ListeningDemo> {
  const aborted: AbortedCall[] = [];
  const noteAborts: Interceptor<ServerCall> = (next) => (call) => {
    call.ctx.signal.addEventListener("abort", () =>
      aborted.push({ method: call.method, code: (call.ctx.signal.reason as { code?: number } | undefined)?.code }),
    );
    return next(call);
  };
  const server = createServer({
    info: DEMO_SERVER_INFO,
    capabilities: demoCapabilities(),
    conformance: "L2",
    handlers: demoHandlers(new DemoEngine()),
    interceptors: [noteAborts],
  });
  const listening = await listen(server, {
    port: 0,
    host: "127.0.0.1",
    ...(corsOrigins.length > 0 ? { cors: { origins: [...corsOrigins] } } : {}),
  });
  return { url: listening.url, aborted, close: () => listening.close() };
}
