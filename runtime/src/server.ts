/**
 * createServerRuntime: one protocol descriptor plus handlers, served over stdio, HTTP
 * (node:http or a Web fetch handler) and in-memory pairs. Every transport shares the
 * same ServerCore, so a handler is written once (§5).
 */
import type { JsonObject } from "./api.js";
import type { ProtocolDescriptor } from "./protocol.js";
import type { MemoryServerEnd } from "./transports/memory.js";
import type { Listening } from "./transports/http-node.js";
import type { HttpTransport, ServerListenOptions } from "./transports/http.js";
import { ServerCore, type ServerRuntimeOptions } from "./core.js";
import { serveStdio, type StdioOptions } from "./transports/stdio.js";
import { MessagePump } from "./transports/pump.js";

export type { ServerListenOptions };

export interface RcpServer {
  /** Serves NDJSON on stdin/stdout until EOF or `shutdown` (§5.1). */
  serveStdio(options?: StdioOptions): Promise<void>;
  /** A Web-standard handler: `POST <base>/<method>` (§5.2). */
  fetch(request: Request): Promise<Response>;
  /** Starts a node:http server on 127.0.0.1 by default. */
  listen(options?: ServerListenOptions): Promise<Listening>;
  /** Serves the server end of an in-memory pair (tests, embedding). */
  connect(end: MemoryServerEnd): { close(): void };
  /** Stops listeners and drops in-memory connections. */
  close(): Promise<void>;
}

export function createServerRuntime<Capabilities = JsonObject>(
  protocol: ProtocolDescriptor,
  options: ServerRuntimeOptions<Capabilities>,
): RcpServer {
  const core = new ServerCore(protocol, options as ServerRuntimeOptions<unknown>);
  const closers = new Set<() => void | Promise<void>>();
  let http: Promise<HttpTransport> | undefined;
  const loadHttp = (): Promise<HttpTransport> =>
    (http ??= import("./transports/http.js").then(({ HttpTransport }) => new HttpTransport(core)));

  return {
    serveStdio: (stdio) => serveStdio(core, stdio),
    fetch: async (request) => (await loadHttp()).fetch(request),
    async listen(listen = {}) {
      const listening = await (await loadHttp()).listen(listen);
      const close = (): Promise<void> => {
        closers.delete(close);
        return listening.close();
      };
      closers.add(close);
      return { url: listening.url, close };
    },
    connect(end) {
      const close = (): void => {
        closers.delete(close);
        pump.abandon();
        end.close();
      };
      const pump = new MessagePump(core, { send: (frame) => end.send(frame) });
      end.onMessage((text) => {
        pump.receive(text);
        // §7.12: once shutdown is answered and in-flight replies are written, hang up.
        if (pump.closing) void pump.settled().then(close);
      });
      end.onClose(() => {
        closers.delete(close);
        pump.abandon();
      });
      closers.add(close);
      return { close };
    },
    async close() {
      await Promise.all([...closers].map((close) => close()));
    },
  };
}
