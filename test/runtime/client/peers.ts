/** Clients wired to the scripted peers of test/fixtures/client-peers. */
import { BaseClient } from "../../../runtime/src/client/base-client.js";
import type { CallError } from "../../../runtime/src/client/call-error.js";
import { stdioClientTransport, type StdioClientTransportOptions } from "../../../runtime/src/client/stdio-transport.js";
import type { ClientTransport } from "../../../runtime/src/client/transport.js";
import { clientTestProtocol, type ClientTestMethods } from "../../fixtures/client-test-protocol.js";
import { entryPath } from "../../fixtures/entry.js";

export const ndjsonPeerPath = entryPath("test/fixtures/client-peers/ndjson-peer.ts");

export interface NdjsonPeerConfig {
  protocolVersion?: number;
  capabilities?: Record<string, unknown>;
  ignoreEof?: boolean;
  ignoreSigterm?: boolean;
}

export const searchCapabilities = { search: {}, streaming: {}, log: {} };

export function ndjsonPeerTransport(
  config: NdjsonPeerConfig = { capabilities: searchCapabilities },
  options: Partial<StdioClientTransportOptions> = {},
) {
  return stdioClientTransport({
    command: process.execPath,
    args: [ndjsonPeerPath, JSON.stringify(config)],
    stderr: "ignore",
    ...options,
  });
}

export function testClient(
  transport: ClientTransport,
  options: { minProtocolVersion?: number; defaultTimeout?: number } = {},
): BaseClient<ClientTestMethods> {
  return new BaseClient<ClientTestMethods>({
    protocol: clientTestProtocol,
    transport,
    clientInfo: { name: "client-tests", version: "1.0.0" },
    capabilities: { streaming: {} },
    ...options,
  });
}

/** A connected client on a fresh ndjson peer. */
export async function connectedStdioClient(config?: NdjsonPeerConfig): Promise<BaseClient<ClientTestMethods>> {
  const client = testClient(ndjsonPeerTransport(config));
  await client.connect();
  return client;
}

/** The error a promise rejects with; fails the test when it resolves instead. */
export function failureOf(promise: Promise<unknown>): Promise<CallError> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as CallError,
  );
}
