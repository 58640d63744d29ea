/**
 * Every symbol generated code imports from the runtime, whether it is a value or only a
 * type, and which of the two entries for generated code exports it: `codegen` (the protocol
 * descriptor and the server, published as `rcp-gen/codegen`) or `client` (the client base and
 * transports, `rcp-gen/codegen-client`). Keeping the client apart keeps it out of a server's
 * start-up. Emitters refer to runtime symbols through this table, never by string.
 */
export const runtimeSymbols = {
  defineProtocol: { kind: "value", entry: "codegen" },
  createServerRuntime: { kind: "value", entry: "codegen" },
  Validator: { kind: "type", entry: "codegen" },
  Handler: { kind: "type", entry: "codegen" },
  ServerOptionsBase: { kind: "type", entry: "codegen" },
  RcpServer: { kind: "type", entry: "codegen" },
  BaseClient: { kind: "value", entry: "client" },
  stdioClientTransport: { kind: "value", entry: "client" },
  httpClientTransport: { kind: "value", entry: "client" },
  BaseClientOptions: { kind: "type", entry: "client" },
  CallOptions: { kind: "type", entry: "client" },
  StreamEvent: { kind: "type", entry: "client" },
  StdioClientTransportOptions: { kind: "type", entry: "client" },
  HttpClientTransportOptions: { kind: "type", entry: "client" },
} as const satisfies Record<string, { kind: "value" | "type"; entry: "codegen" | "client" }>;

export type RuntimeSymbol = keyof typeof runtimeSymbols;

/**
 * The client entry sits beside the given runtime entry with a `-client` suffix:
 * `rcp-gen/codegen` -> `rcp-gen/codegen-client`, `../runtime/codegen.js` -> `../runtime/codegen-client.js`.
 */
export function clientEntryOf(runtimeSpecifier: string): string {
  return runtimeSpecifier.endsWith(".js")
    ? `${runtimeSpecifier.slice(0, -".js".length)}-client.js`
    : `${runtimeSpecifier}-client`;
}
