/** What a BaseClient (and so every generated client) is made with. */
import type { ClientCall, Interceptor, JsonObject } from "../protocol/types.js";
import type { ClientProtocol } from "../protocol/descriptor.js";
import type { RetryPolicy } from "./retry.js";
import type { ClientDiagnostic } from "./tolerance.js";
import type { ClientTransport } from "./transport.js";

export interface BaseClientOptions {
  /**
   * What the client speaks: a whole ProtocolDescriptor (the generated `RcpClient` passes its
   * own), or the lifecycle part plus the calls it makes (generated `connectHttpWith`).
   */
  protocol: ClientProtocol;
  /** How frames travel: the stdio, HTTP or in-memory client transport. */
  transport: ClientTransport;
  /** This client's name and version, sent in `initialize` (§7.1). */
  clientInfo: { name: string; version: string };
  /** What this client can consume (§7.1); `{}` by default. */
  capabilities?: JsonObject;
  /** Lowest protocol version this client implements; a lower negotiated version aborts (§7.1). Default 1. */
  minProtocolVersion?: number;
  /** Milliseconds applied to calls that set no `timeout`; none by default. */
  defaultTimeout?: number;
  /**
   * Hears each deviation from the schema the client tolerated, once per kind, method and
   * capability (`tolerated` counts repeats): a malformed capability set aside, a progress
   * frame's malformed partial, a malformed result delivered as received. Default: console.warn.
   */
  onDiagnostic?: (diagnostic: ClientDiagnostic) => void;
  /** Refuse instead of tolerate: each of those deviations fails the handshake or the call with -32603. Default false. */
  strict?: boolean;
  /**
   * Run around every call, `initialize` included, in the array's order (the first is outermost):
   * per-call headers, logging, metrics, tracing. None by default.
   */
  interceptors?: readonly Interceptor<ClientCall>[];
  /**
   * Send a failed call again (§12.2), innermost, so interceptors see one call: only calls the
   * schema marks `idempotent`, only errors that say a retry may succeed, with jittered
   * exponential backoff of at least `retryAfterMs`, within the call's deadline and until its
   * signal aborts. `true` for the defaults. Off by default.
   */
  retry?: RetryPolicy | boolean;
}
