/**
 * How each server under test is spoken to: the handshake it needs, how a retrieve request looks
 * in its protocol, and how messages are framed on stdio. Load generators send the same bytes
 * to every round of a peer, so only the server differs between A and B.
 */
import { INITIALIZE_PARAMS, RETRIEVE_PARAMS } from "../fixture.js";

export type DialectName = "rcp" | "mcp" | "lsp";

export interface Dialect {
  /** Messages sent before the workload; `answered` ones are awaited. */
  handshake: ReadonlyArray<{ message: object; answered: boolean }>;
  /** The JSON text of request `id` (its params may carry a progress token). */
  request(id: number, progressToken?: string): string;
  /** stdio framing: one JSON per line, or LSP's Content-Length headers. */
  framing: "ndjson" | "content-length";
}

const retrieveParams = JSON.stringify(RETRIEVE_PARAMS);

function rcpRequest(id: number, progressToken?: string): string {
  const params =
    progressToken === undefined ? retrieveParams : JSON.stringify({ ...RETRIEVE_PARAMS, _meta: { progressToken } });
  return `{"jsonrpc":"2.0","id":${id},"method":"retrieve","params":${params}}`;
}

const mcpArguments = JSON.stringify({ name: "retrieve", arguments: RETRIEVE_PARAMS });

export const DIALECTS: Record<DialectName, Dialect> = {
  rcp: {
    handshake: [
      { message: { jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS }, answered: true },
    ],
    request: rcpRequest,
    framing: "ndjson",
  },
  mcp: {
    handshake: [
      {
        message: {
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "rcp-bench", version: "1.0.0" },
          },
        },
        answered: true,
      },
      { message: { jsonrpc: "2.0", method: "notifications/initialized" }, answered: false },
    ],
    request: (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${mcpArguments}}`,
    framing: "ndjson",
  },
  lsp: {
    handshake: [
      { message: { jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE_PARAMS }, answered: true },
    ],
    request: rcpRequest,
    framing: "content-length",
  },
};

export function frame(dialect: Dialect, json: string): string {
  if (dialect.framing === "ndjson") return json + "\n";
  return `Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
}
