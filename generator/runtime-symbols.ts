/**
 * Every symbol generated code imports from the runtime entry for generated code
 * (`runtime/codegen.ts`, published as `rcp-gen/codegen`), and whether it is a value or
 * only a type. Emitters refer to runtime symbols through this table, never by string.
 */
export const runtimeSymbols = {
  defineProtocol: "value",
  createServerRuntime: "value",
  BaseClient: "value",
  stdioClientTransport: "value",
  httpClientTransport: "value",
  Validator: "type",
  Handler: "type",
  ServerOptionsBase: "type",
  RcpServer: "type",
  BaseClientOptions: "type",
  CallOptions: "type",
  StreamEvent: "type",
  StdioClientTransportOptions: "type",
  HttpClientTransportOptions: "type",
} as const satisfies Record<string, "value" | "type">;

export type RuntimeSymbol = keyof typeof runtimeSymbols;
