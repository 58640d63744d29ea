/**
 * The entry point generated clients import from (published as `rcp-gen/codegen-client`),
 * beside `./codegen.ts`; its exports are the `client` symbols of generator/runtime-symbols.ts.
 */
export type { CallOptions, StreamEvent } from "./api.js";
export {
  BaseClient,
  stdioClientTransport,
  httpClientTransport,
  type BaseClientOptions,
  type StdioClientTransportOptions,
  type HttpClientTransportOptions,
} from "./client/index.js";
