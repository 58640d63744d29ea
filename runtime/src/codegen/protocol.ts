/**
 * The entry generated methods.ts and validators.ts import (published as
 * `@rcp-gen/runtime/codegen-protocol`): the protocol descriptor's constructor and its types,
 * the two helpers ajv's standalone validators call (string length, equality), and the type of
 * the MCP tools mcp.ts lists; nothing else. Both the server and the client import methods.ts; kept apart from
 * `./server.ts` (the server), so a browser bundle of the generated client never reaches the
 * server runtime.
 */
export {
  codePointLength,
  defineProtocol,
  jsonEqual,
  type CallDescriptor,
  type ClientProtocol,
  type Validator,
} from "../protocol/descriptor.js";
export type { McpToolDescriptor } from "../mcp/tool.js";
