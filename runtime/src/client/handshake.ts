/**
 * The client's side of `initialize` (§7.1): send it, check the negotiated version, and keep
 * the capabilities the session may use. Liberal where that is safe: a malformed capability
 * is set aside rather than failing the connection (./usable-capabilities.ts), and a
 * request-scoped (HTTP) server that refuses a second `initialize` with -32600 because it
 * keeps one session per process is asked for `info` instead, which reports the same
 * capabilities (§7.2, §13.2). Both are reported; under `strict` both fail the handshake.
 */
import type { JsonObject } from "../protocol/types.js";
import type { CallDescriptor, ClientProtocol } from "../protocol/descriptor.js";
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { callError } from "./call-error.js";
import type { Tolerance } from "./tolerance.js";
import { screenCapabilities } from "./usable-capabilities.js";

export interface ClientSession {
  protocolVersion: number;
  serverInfo: { name: string; version: string };
  serverCapabilities: JsonObject;
  conformance: string | undefined;
}

export interface HandshakeInput {
  protocol: ClientProtocol;
  /** Sends one request and resolves with its result. */
  request(method: string, params: JsonObject): Promise<unknown>;
  /** Ends the connection: a malformed answer or a version below the floor leaves nothing to retry (§7.1). */
  close(): Promise<void>;
  clientInfo: { name: string; version: string };
  capabilities: JsonObject;
  minProtocolVersion: number;
  /** Each HTTP request is its own exchange, so the server may not keep per-client state (§5.2). */
  requestScoped: boolean;
  tolerance: Tolerance;
}

/** The session, or a CallError (the server's own refusal of initialize may be retried). */
export async function handshake(input: HandshakeInput): Promise<ClientSession> {
  const { protocol, tolerance } = input;
  const initialize = lifecycleMethod(protocol, "initialize");
  let answeredBy = initialize;
  let result: unknown;
  try {
    result = await input.request(initialize.method, {
      protocolVersion: protocol.version,
      client: input.clientInfo,
      capabilities: input.capabilities,
    });
  } catch (error) {
    const info = input.requestScoped && !tolerance.strict ? infoInsteadOf(protocol, error) : undefined;
    if (info === undefined) throw error;
    result = await input.request(info.method, {});
    answeredBy = info;
    tolerance.report({
      kind: "session",
      method: initialize.method,
      problem: `${(error as RcpError).message} (${ErrorCode.InvalidRequest})`,
      message: `${initialize.method} was refused with -32600 by an HTTP server that keeps one session per process (§5.2 says HTTP is request-scoped); using ${info.method}, which reports the same capabilities (§13.2)`,
    });
  }
  const screened = screenCapabilities(answeredBy.result, result);
  if (!screened.ok || (tolerance.strict && screened.setAside.length > 0)) {
    const problem = screened.ok ? screened.setAside[0]!.problem : screened.problem;
    await input.close();
    throw callError(protocol, ErrorCode.InternalError, `Malformed ${answeredBy.method} result`, {
      problem,
      received: result,
    });
  }
  for (const { capability, problem } of screened.setAside) {
    tolerance.report({
      kind: "capability",
      method: answeredBy.method,
      capability,
      problem,
      message: `the server's ${capability} capability is malformed (${problem}); treated as not advertised`,
    });
  }
  const session = screened.result as { protocolVersion: number; server: ClientSession["serverInfo"] };
  const negotiated = session.protocolVersion;
  if (!Number.isInteger(negotiated) || negotiated < input.minProtocolVersion || negotiated > protocol.version) {
    // §7.1: a client MUST abort rather than speak a dialect it does not implement.
    await input.close();
    throw callError(
      protocol,
      ErrorCode.VersionMismatch,
      `Server negotiated protocol version ${String(negotiated)}; this client speaks ${input.minProtocolVersion}..${protocol.version}`,
      { negotiated, minimum: input.minProtocolVersion, maximum: protocol.version },
    );
  }
  const meta = screened.result._meta as { conformance?: unknown } | undefined;
  return {
    protocolVersion: negotiated,
    serverInfo: session.server,
    serverCapabilities: (screened.result.capabilities as JsonObject | undefined) ?? {},
    conformance: typeof meta?.conformance === "string" ? meta.conformance : undefined,
  };
}

/** `info` when `error` is the -32600 of a server that already counts itself initialized. */
function infoInsteadOf(protocol: ClientProtocol, error: unknown): CallDescriptor | undefined {
  if (!(error instanceof RcpError) || error.code !== ErrorCode.InvalidRequest) return undefined;
  return Object.values(protocol.methods).find((method) => method.lifecycle === "info");
}

export function lifecycleMethod(protocol: ClientProtocol, role: "initialize"): CallDescriptor {
  const found = Object.values(protocol.methods).find((method) => method.lifecycle === role);
  if (found === undefined) throw new TypeError(`The protocol descriptor has no ${role} method`);
  return found;
}
