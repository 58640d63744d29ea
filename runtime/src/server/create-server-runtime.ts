/**
 * createServerRuntime: one protocol descriptor plus handlers, served through the Web fetch
 * handler and in-memory pairs on any JavaScript runtime. Node hosting (stdio, node:http)
 * lives in ../node/index.ts and reaches the same ServerCore through `serverInternals`, so a handler
 * is written once for every transport (§5) and nothing here imports a Node module.
 */
import type { JsonObject } from "../protocol/types.js";
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import type { MemoryServerEnd } from "../message-stream/memory-pair.js";
import type { HttpTransport } from "../http/http-transport.js";
import { ServerCore, type ServerRuntimeOptions } from "./core.js";
import { MessagePump } from "../message-stream/pump.js";

/** A server: serve it with `serveStdio` or `listen` (`@rcp-gen/runtime/node`), or call `fetch` from any Web-standard host. */
export interface RcpServer {
  /** A Web-standard handler: `POST <base>/<method>` (§5.2). Node, Bun, Deno, workers. */
  fetch(request: Request): Promise<Response>;
  /** Serves the server end of an in-memory pair (tests, embedding). */
  connect(end: MemoryServerEnd): {
    /** Ends this in-memory connection. */
    close(): void;
  };
  /** Stops listeners and drops in-memory connections. */
  close(): Promise<void>;
}

/** What the hosting adapters (../node/index.ts) need of a server: its core, its HTTP side, its closers. */
export interface ServerInternals {
  readonly core: ServerCore;
  http(): Promise<HttpTransport>;
  /** Registers a listener to stop on `close()`; the returned function stops it and unregisters it. */
  track(stop: () => void | Promise<void>): () => Promise<void>;
}

const internals = new WeakMap<RcpServer, ServerInternals>();
const IN_MEMORY = Object.freeze({ auth: undefined, transport: Object.freeze({ kind: "memory" as const }) });

/** The internals of a server made by createServerRuntime; a TypeError for anything else. */
export function serverInternals(server: RcpServer): ServerInternals {
  const found = internals.get(server);
  if (found === undefined) throw new TypeError("not an RCP server made by createServer/createServerRuntime");
  return found;
}

/** Makes a server from a protocol descriptor and its options; the generated `createServer` calls it with the generated `protocol`. */
export function createServerRuntime<Capabilities = JsonObject>(
  protocol: ProtocolDescriptor,
  options: ServerRuntimeOptions<Capabilities>,
): RcpServer {
  const core = new ServerCore(protocol, options);
  const closers = new Set<() => void | Promise<void>>();
  let http: Promise<HttpTransport> | undefined;
  // Loaded on first use, so a stdio-only server never loads the HTTP and SSE code (start-up time).
  const loadHttp = (): Promise<HttpTransport> =>
    (http ??= import("../http/http-transport.js").then(({ HttpTransport }) => new HttpTransport(core)));
  const track = (stop: () => void | Promise<void>): (() => Promise<void>) => {
    const close = async (): Promise<void> => {
      closers.delete(close);
      await stop();
    };
    closers.add(close);
    return close;
  };

  const server: RcpServer = {
    fetch: async (request) => (await loadHttp()).fetch(request),
    connect(end) {
      const pump = new MessagePump(core, { send: (frame) => end.send(frame) }, IN_MEMORY);
      const close = track(() => {
        pump.abandon();
        end.close();
      });
      end.onMessage((text) => {
        pump.receive(text);
        // §7.12: once shutdown is answered and in-flight replies are written, hang up.
        if (pump.closing) void pump.settled().then(close);
      });
      end.onClose(() => {
        closers.delete(close);
        pump.abandon();
      });
      return { close: () => void close() };
    },
    async close() {
      // eslint-disable-next-line @typescript-eslint/await-thenable -- a closer returns nothing or a promise
      await Promise.all([...closers].map((close) => close()));
    },
  };
  internals.set(server, { core, http: loadHttp, track });
  return server;
}
