/**
 * The entry point generated clients import from (published as `@rcp-gen/runtime/codegen-client`),
 * beside `./codegen.ts`; its exports are the `client` symbols of the generator's runtime-symbols.ts.
 * Browser-safe: the stdio transport is in `./codegen-node.ts`.
 */
export type { CallOptions, StreamEvent } from "./api.js";
export { protocolWithCalls } from "./protocol.js";
export {
  BaseClient,
  createMemoryTransportPair,
  httpClientTransport,
  type BaseClientOptions,
  type HttpClientTransportOptions,
} from "./client/index.js";

/**
 * Completes `client`'s initialize and returns it; if that fails, closes it (releasing its
 * transport: a child process, a socket) and rethrows. Every generated connect function ends so.
 */
export async function connectOrClose<Client extends { connect(): Promise<void>; close(): Promise<void> }>(
  client: Client,
): Promise<Client> {
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}
