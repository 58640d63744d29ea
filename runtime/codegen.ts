/**
 * The one entry point generated code imports from (published as `rcp-gen/codegen`).
 * Its exports are exactly the symbols listed in generator/runtime-symbols.ts; generated
 * files never reach into other runtime modules.
 */
export { defineProtocol, type Validator } from "./protocol.js";
export type { Handler, ServerOptionsBase, CallOptions, StreamEvent } from "./api.js";
export { createServerRuntime, type RcpServer } from "./server.js";
export {
  BaseClient,
  stdioClientTransport,
  httpClientTransport,
  type BaseClientOptions,
  type StdioClientTransportOptions,
  type HttpClientTransportOptions,
} from "./client/index.js";
