/**
 * The entry generated Node-only code imports (published as `@rcp-gen/runtime/codegen-node`):
 * the stdio client transport behind a generated `connectStdio`. Kept apart from
 * `./client.ts` so that a browser bundle of the generated client never reaches it.
 */
export { stdioClientTransport, type StdioClientTransportOptions } from "../client/stdio-transport.js";
