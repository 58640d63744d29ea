/**
 * The entry point generated clients import from (published as `@rcp-gen/runtime/codegen-client`),
 * beside `./server.ts`; its exports are the `client` symbols of `./symbols.ts`.
 * Browser-safe: the stdio transport is in `./node.ts`.
 */
export type { CallOptions, StreamEvent } from "../protocol/types.js";
export { protocolWithCalls } from "../protocol/descriptor.js";
export {
  BaseClient,
  createMemoryTransportPair,
  httpClientTransport,
  type BaseClientOptions,
  type HttpClientTransportOptions,
} from "../client/index.js";
export { connectOrClose } from "../client/connect-or-close.js";
export {
  connectHttpCalls,
  connectMemoryClient,
  type ConnectOptions,
  type MemoryConnectOptions,
} from "../client/connect.js";
export { emptyStreamedData, foldStreamEvent, type StreamedData } from "../client/streamed-data.js";
