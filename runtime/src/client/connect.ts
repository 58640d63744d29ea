/**
 * The connect functions of every generated client, with the generated client class passed in:
 * generated client.ts only names its class, its call descriptors and its lifecycle part.
 */
import type { BaseClientOptions } from "./client-options.js";
import { connectOrClose } from "./connect-or-close.js";
import { httpClientTransport, type HttpClientTransportOptions } from "./http-transport.js";
import { protocolWithCalls, type CallDescriptor, type ClientProtocol } from "../protocol/descriptor.js";
import { createMemoryTransportPair } from "../message-stream/memory-pair.js";
import type { RcpServer } from "../server/create-server-runtime.js";

/** Client options plus the options of the transport to create. */
export type ConnectOptions<TransportOptions> = Omit<BaseClientOptions, "protocol" | "transport"> & {
  transport: TransportOptions;
};

/** What a connect function makes: a client it can initialize, and close if that fails. */
type Connectable = Parameters<typeof connectOrClose>[0];

/** Client options for a connection in memory: no transport to give, and `clientInfo` optional. */
export type MemoryConnectOptions = Omit<BaseClientOptions, "protocol" | "transport" | "clientInfo"> & {
  clientInfo?: BaseClientOptions["clientInfo"];
};

/**
 * An HTTP client of class `Client` speaking `base` (the lifecycle part) plus `calls`, initialized;
 * the transport is released if that fails. Never the whole protocol, whose params validators a
 * client does not use: a bundle carries the validators of `calls` only.
 */
export function connectHttpCalls<Client extends Connectable>(
  Client: new (options: BaseClientOptions) => Client,
  base: ClientProtocol,
  calls: readonly CallDescriptor[],
  options: ConnectOptions<HttpClientTransportOptions>,
): Promise<Client> {
  return connectOrClose(
    new Client({
      ...options,
      protocol: protocolWithCalls(base, calls),
      transport: httpClientTransport(options.transport),
    }),
  );
}

/**
 * A client of class `Client` connected to `server` in memory (no process, no socket; frames still
 * cross as JSON text), initialized; for unit tests of handlers.
 */
export function connectMemoryClient<Client extends Connectable>(
  Client: new (options: Omit<BaseClientOptions, "protocol">) => Client,
  server: RcpServer,
  options: MemoryConnectOptions = {},
): Promise<Client> {
  const pair = createMemoryTransportPair();
  server.connect(pair.server);
  return connectOrClose(
    new Client({ clientInfo: { name: "rcp-memory-client", version: "0.0.0" }, ...options, transport: pair.client }),
  );
}
