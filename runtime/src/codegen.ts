/**
 * The entry point generated code imports the protocol descriptor and the server from
 * (published as `@rcp-gen/runtime/codegen`); the client side is `./codegen-client.ts`, kept apart so
 * a server's start-up never loads the client. Together they export exactly the symbols
 * listed in the generator's runtime-symbols.ts; generated files never reach into other modules.
 */
export { defineProtocol, type Validator } from "./protocol.js";
export type { Handler, ServerOptionsBase } from "./api.js";
export { createServerRuntime, type RcpServer } from "./server.js";
