/**
 * Session state and the lifecycle methods the runtime answers itself (§7.1, §7.2, §7.12,
 * §7.15, §13, §14.1): version negotiation, the initialize rules, and the capability set
 * that stays fixed for the session's lifetime (§13.2).
 */
import type { ConformanceLevel, JsonObject, SessionView } from "../protocol/types.js";
import type { LifecycleRole, ProtocolDescriptor } from "../protocol/descriptor.js";
import { ErrorCode, RcpError, invalidParams } from "../protocol/errors.js";
import { isRecord } from "../protocol/dotted-paths.js";
import type { SessionRecord } from "../state/types.js";

/** What every session of one server shares. */
export interface ServerIdentity {
  readonly protocol: ProtocolDescriptor;
  readonly info: Readonly<{ name: string; version: string }>;
  /** Deep-frozen snapshot taken when the server was created, so it cannot drift (§13.2). */
  readonly capabilities: Readonly<JsonObject>;
  readonly conformance: ConformanceLevel;
}

export class Session implements SessionView {
  readonly serverCapabilities: Readonly<JsonObject>;
  protocolVersion: number;
  clientCapabilities: Readonly<JsonObject> = {};
  client: Readonly<{ name: string; version: string }> | undefined;
  initialized: boolean;
  /** The minimum log level the client asked for in initialize `_meta.logLevel` (§17.1). */
  logLevel: string | undefined;
  /** Token of a stateful HTTP session (§5.2), echoed in `initialize.result._meta.session`. */
  token: string | undefined;

  /**
   * @param implicit a stateless HTTP session: initialized from the start at the advertised
   *   capabilities, answering `initialize` idempotently (§5.2).
   */
  constructor(
    readonly identity: ServerIdentity,
    readonly implicit = false,
  ) {
    this.serverCapabilities = identity.capabilities;
    this.protocolVersion = identity.protocol.version;
    this.initialized = implicit;
  }

  /** What another process needs to go on with this initialized session (./state/types.ts). */
  record(): SessionRecord {
    return {
      protocolVersion: this.protocolVersion,
      clientCapabilities: this.clientCapabilities,
      ...(this.client === undefined ? {} : { client: this.client }),
      ...(this.logLevel === undefined ? {} : { logLevel: this.logLevel }),
    };
  }

  /** Takes up a session initialized elsewhere (another replica, or before this process kept it). */
  resume(token: string, record: SessionRecord): void {
    this.token = token;
    this.protocolVersion = record.protocolVersion;
    this.clientCapabilities = record.clientCapabilities;
    this.client = record.client;
    this.logLevel = record.logLevel;
    this.initialized = true;
  }

  answer(role: LifecycleRole, params: Record<string, unknown>): JsonObject {
    switch (role) {
      case "initialize":
        return this.#initialize(params);
      case "info":
        return this.#describe();
      case "ping":
        return params.nonce === undefined ? {} : { nonce: params.nonce };
      case "shutdown":
        return {};
    }
  }

  #initialize(params: Record<string, unknown>): JsonObject {
    if (this.initialized && !this.implicit) {
      throw new RcpError(ErrorCode.InvalidRequest, "Invalid Request: the session is already initialized (§13)");
    }
    const requested = params.protocolVersion;
    const negotiated =
      typeof requested === "number" ? Math.min(Math.floor(requested), this.identity.protocol.version) : 0;
    if (negotiated < 1) {
      throw new RcpError(ErrorCode.VersionMismatch, "Version mismatch: no common protocol version >= 1", {
        field: "protocolVersion",
        supported: [1, this.identity.protocol.version],
      });
    }
    const meta = isRecord(params._meta) ? params._meta : undefined;
    const logLevel = meta?.logLevel;
    if (
      logLevel !== undefined &&
      (typeof logLevel !== "string" || !this.identity.protocol.logLevels.includes(logLevel))
    ) {
      throw invalidParams("_meta.logLevel", `must be one of ${this.identity.protocol.logLevels.join(", ")}`);
    }
    // Stateless HTTP: nothing to remember, but the answer still carries the negotiated version.
    if (this.implicit) return { ...this.#describe(), protocolVersion: negotiated };
    this.protocolVersion = negotiated;
    this.clientCapabilities = isRecord(params.capabilities) ? params.capabilities : {};
    const client = params.client;
    this.client = isRecord(client) ? (client as { name: string; version: string }) : undefined;
    this.logLevel = logLevel;
    this.initialized = true;
    const result = this.#describe();
    if (this.token !== undefined) (result._meta as JsonObject).session = this.token;
    return result;
  }

  /** The `info` / `initialize` result: same capability set before and after (§7.2, §13.2). */
  #describe(): JsonObject {
    return {
      protocolVersion: this.protocolVersion,
      server: this.identity.info,
      capabilities: this.serverCapabilities,
      _meta: { conformance: this.identity.conformance },
    };
  }
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
