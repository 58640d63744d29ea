/**
 * The runtime's symbol table for generated code (published as `@rcp-gen/runtime/codegen-symbols`;
 * as protobuf-es has `codegenv2/symbols.ts`): every symbol generated code may import,
 * whether it is a value or only a type, and which of the four entries for generated code
 * exports it: `codegen` (the server,
 * `@rcp-gen/runtime/codegen`), `protocol` (the protocol descriptor, which server and client
 * share, `@rcp-gen/runtime/codegen-protocol`), `client` (the client base and its Web-standard
 * transports, `@rcp-gen/runtime/codegen-client`) or `node` (the stdio client transport,
 * `@rcp-gen/runtime/codegen-node`). Keeping the client apart keeps it out of a server's
 * start-up; keeping the server and `node` apart keeps Node modules out of a browser bundle.
 * The runtime owns this table, next to the entries it describes; rcp-gen reads it to write
 * imports (its emitters refer to runtime symbols through it, never by string), and
 * test/runtime/codegen-symbols.test.ts checks that each entry exports exactly its symbols.
 */
import type { BaseClient } from "../client/base-client.js";
import type { MethodMap } from "../protocol/types.js";

export const runtimeSymbols = {
  createServerRuntime: { kind: "value", entry: "codegen" },
  Validator: { kind: "type", entry: "protocol" },
  codePointLength: { kind: "value", entry: "protocol" },
  jsonEqual: { kind: "value", entry: "protocol" },
  standardValidator: { kind: "value", entry: "protocol" },
  StandardValidator: { kind: "type", entry: "protocol" },
  CallDescriptor: { kind: "type", entry: "protocol" },
  ClientProtocol: { kind: "type", entry: "protocol" },
  ProtocolDescriptor: { kind: "type", entry: "protocol" },
  methodDescriptor: { kind: "value", entry: "protocol" },
  rcpErrors: { kind: "value", entry: "protocol" },
  McpToolDescriptor: { kind: "type", entry: "protocol" },
  withDefinitions: { kind: "value", entry: "protocol" },
  protocolWithCalls: { kind: "value", entry: "client" },
  Handler: { kind: "type", entry: "codegen" },
  ServerOptionsBase: { kind: "type", entry: "codegen" },
  RcpServer: { kind: "type", entry: "codegen" },
  CapabilityAt: { kind: "type", entry: "codegen" },
  Advertises: { kind: "type", entry: "codegen" },
  RequireHandlers: { kind: "type", entry: "codegen" },
  KnownCapabilityKeys: { kind: "type", entry: "codegen" },
  BaseClient: { kind: "value", entry: "client" },
  stdioClientTransport: { kind: "value", entry: "node" },
  httpClientTransport: { kind: "value", entry: "client" },
  createMemoryTransportPair: { kind: "value", entry: "client" },
  connectOrClose: { kind: "value", entry: "client" },
  connectHttpCalls: { kind: "value", entry: "client" },
  connectMemoryClient: { kind: "value", entry: "client" },
  ConnectOptions: { kind: "type", entry: "client" },
  MemoryConnectOptions: { kind: "type", entry: "client" },
  BaseClientOptions: { kind: "type", entry: "client" },
  CallOptions: { kind: "type", entry: "client" },
  StreamEvent: { kind: "type", entry: "client" },
  StreamedData: { kind: "type", entry: "client" },
  emptyStreamedData: { kind: "value", entry: "client" },
  foldStreamEvent: { kind: "value", entry: "client" },
  StdioClientTransportOptions: { kind: "type", entry: "node" },
  HttpClientTransportOptions: { kind: "type", entry: "client" },
} as const satisfies Record<string, { kind: "value" | "type"; entry: RuntimeEntry }>;

export type RuntimeSymbol = keyof typeof runtimeSymbols;

export type RuntimeEntry = "codegen" | "protocol" | "client" | "node";

/** The runtime entry generated code imports by default: the published package. */
export const defaultRuntimeEntry = "@rcp-gen/runtime/codegen";

/** The file of the `codegen` entry in this package's own layout (src/ or dist/): the others sit beside it. */
const ownLayoutEntry = /\/codegen\/server\.js$/;

/**
 * The other entries sit beside the given runtime entry with a `-protocol`, `-client` or
 * `-node` suffix: `@rcp-gen/runtime/codegen` -> `@rcp-gen/runtime/codegen-client`,
 * `../runtime/codegen.js` -> `../runtime/codegen-node.js`; a path to this package's own
 * files names them in its codegen/ folder: `../runtime/src/codegen/server.js` ->
 * `../runtime/src/codegen/client.js`.
 */
export function entrySpecifier(runtimeSpecifier: string, entry: RuntimeEntry): string {
  if (entry === "codegen") return runtimeSpecifier;
  if (ownLayoutEntry.test(runtimeSpecifier)) return runtimeSpecifier.replace(/server\.js$/, `${entry}.js`);
  return runtimeSpecifier.endsWith(".js")
    ? `${runtimeSpecifier.slice(0, -".js".length)}-${entry}.js`
    : `${runtimeSpecifier}-${entry}`;
}

/** The runtime entry (the `--runtime` value) behind any entry's specifier: entrySpecifier undone. */
export function runtimeEntryOf(specifier: string): string {
  return specifier
    .replace(/(\/codegen\/)(?:protocol|client|node)\.js$/, "$1server.js")
    .replace(/-(?:protocol|client|node)(\.js)?$/, "$1");
}

/**
 * Every public member of BaseClient, typed as a record of exactly its keys: a member added to
 * BaseClient and not here fails to compile. rcp-gen reads it to refuse a schema method whose
 * client method would shadow one.
 */
const baseClientMemberSet: Readonly<Record<keyof BaseClient<MethodMap>, true>> = {
  "~methods": true,
  tolerated: true,
  serverInfo: true,
  serverCapabilities: true,
  protocolVersion: true,
  conformance: true,
  connect: true,
  supports: true,
  call: true,
  stream: true,
  pages: true,
  notify: true,
  close: true,
};

/** The names of BaseClient's public members, which a generated client's methods must not take. */
export const baseClientMembers: readonly string[] = Object.keys(baseClientMemberSet);
