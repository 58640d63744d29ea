/**
 * The Selector (§16.1): a validated `rcp.json` registry, engines chosen by the registry's own
 * fields and by what they advertise, connected with the generated client class. HTTP works
 * everywhere; stdio engines need a connector from `@rcp-gen/runtime/node`, so this module
 * never reaches child processes and runs in a browser or a worker too.
 */
import type { JsonObject, MethodMap } from "../protocol/types.js";
import { ErrorCode, RcpError } from "../protocol/errors.js";
import { httpClientTransport, type HttpClientTransportOptions } from "../client/http-transport.js";
import type { ClientTransport } from "../client/transport.js";
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import { matchesEntry, unmetCriteria, type EngineCriteria } from "./criteria.js";
import { EngineHandle, type EngineClient } from "./engine-handle.js";
import { asRcpError, within } from "./errors.js";
import { Federation, type FederationOptions } from "./facade.js";
import { parseRegistry, type EngineEntry } from "./registry.js";
import type { MethodsOf } from "./types.js";

/** A generated client class (`RcpClient`): its constructor and the protocol it speaks. */
export interface ClientClass<C extends EngineClient> {
  new (options: {
    transport: ClientTransport;
    clientInfo: { name: string; version: string };
    capabilities?: JsonObject;
  }): C & {
    /** Runs the initialize handshake. */
    connect(): Promise<void>;
  };
  readonly protocol: ProtocolDescriptor;
}

/** Opens the transport of a stdio engine (`stdioConnector` from `@rcp-gen/runtime/node`). */
export type StdioConnector = (command: readonly string[], engine: EngineEntry) => ClientTransport;

/** How a Selector connects engines: the generated client class, the client's identity, the stdio connector and HTTP options. */
export interface SelectorOptions<C extends EngineClient> {
  /** The generated client class, e.g. `RcpClient`. */
  client: ClientClass<C>;
  clientInfo: { name: string; version: string };
  /** What this client consumes, sent in `initialize` (§7.1). */
  capabilities?: JsonObject;
  /** Needed for stdio engines; without it they fail to connect with a message saying so. */
  stdio?: StdioConnector;
  /** Options for every HTTP engine: `headers`, `fetch`, `sse`. */
  http?: Omit<HttpClientTransportOptions, "url">;
  /** How long the initialize handshake may take; default 10 000 ms. */
  connectTimeoutMs?: number;
}

/** An engine that connected: its registry entry and its typed client. */
export interface SelectedEngine<C> {
  readonly entry: EngineEntry;
  readonly client: C;
}

/** An engine that did not: why, as an RcpError (a down engine is -32010). */
export interface EngineFailure {
  readonly entry: EngineEntry;
  readonly error: RcpError;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Reads an `rcp.json` registry (§16.1) and chooses engines by priority and criteria, or fans out to them with `federation()`. */
export class Selector<C extends EngineClient> {
  /** Every registry entry, highest priority first (registry order among equals). */
  readonly engines: readonly EngineEntry[];
  readonly #options: SelectorOptions<C>;

  /** Validates `registry` (its JSON text or parsed value); throws RegistryError naming entry and field. */
  constructor(registry: unknown, options: SelectorOptions<C>) {
    this.#options = options;
    const entries = parseRegistry(options.client.protocol, registry);
    this.engines = entries
      .map((entry, index) => ({ entry, index }))
      .sort(byPriority)
      .map(({ entry }) => entry);
  }

  /** Entries matching the registry-field part of `criteria`, highest priority first; nothing is connected. */
  candidates(criteria: EngineCriteria<MethodsOf<C>> = {}): EngineEntry[] {
    return this.engines.filter((entry) => matchesEntry(entry, criteria as EngineCriteria<MethodMap>));
  }

  /** Connects one engine, by registry id or entry. */
  async connect(engine: string | EngineEntry): Promise<C> {
    const entry = typeof engine === "string" ? this.engines.find((candidate) => candidate.id === engine) : engine;
    if (entry === undefined)
      throw new RcpError(
        ErrorCode.InvalidParams,
        `No engine with id "${typeof engine === "string" ? engine : engine.id}"`,
      );
    return this.#open(entry).catch((error: unknown) => {
      throw asRcpError(error);
    });
  }

  /** A connected client; a transport failure stays a TransportError, for the caller to word. */
  async #open(entry: EngineEntry): Promise<C> {
    const client = new this.#options.client({
      transport: this.#transport(entry),
      clientInfo: this.#options.clientInfo,
      ...(this.#options.capabilities === undefined ? {} : { capabilities: this.#options.capabilities }),
    });
    const timeout = this.#options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    try {
      await within(client.connect(), timeout, undefined, `initialize with engine ${entry.id}`);
      return client;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  /**
   * The first engine, by priority, that connects and meets `criteria` (liveness fallback,
   * §7.15); the ones tried before it are closed. -32003 when engines answered but none
   * qualified, -32010 when none answered.
   */
  async select(criteria: EngineCriteria<MethodsOf<C>> = {}): Promise<SelectedEngine<C>> {
    const failures: string[] = [];
    let anyAnswered = false;
    for (const entry of this.candidates(criteria)) {
      let client: C;
      try {
        client = await this.connect(entry);
      } catch (error) {
        failures.push(`${entry.id}: ${asRcpError(error).message}`);
        continue;
      }
      anyAnswered = true;
      const unmet = unmetCriteria(this.#options.client.protocol, client, criteria);
      if (unmet === undefined) return { entry, client };
      failures.push(`${entry.id}: ${unmet}`);
      await client.close();
    }
    throw new RcpError(
      anyAnswered ? ErrorCode.CapabilityMissing : ErrorCode.BackendUnavailable,
      anyAnswered ? "No engine meets the criteria" : "No engine could be reached",
      { detail: failures.join("; ") || "no registry entry matches" },
    );
  }

  /** Connects every candidate concurrently; those that meet `criteria` are returned, the others closed. */
  async connectAll(
    criteria: EngineCriteria<MethodsOf<C>> = {},
  ): Promise<{ engines: SelectedEngine<C>[]; failures: EngineFailure[] }> {
    const engines: SelectedEngine<C>[] = [];
    const failures: EngineFailure[] = [];
    const candidates = this.candidates(criteria);
    const settled = await Promise.allSettled(candidates.map((entry) => this.connect(entry)));
    for (const [index, outcome] of settled.entries()) {
      const entry = candidates[index]!;
      if (outcome.status === "rejected") {
        failures.push({ entry, error: asRcpError(outcome.reason) });
        continue;
      }
      const unmet = unmetCriteria(this.#options.client.protocol, outcome.value, criteria);
      if (unmet === undefined) engines.push({ entry, client: outcome.value });
      else {
        failures.push({ entry, error: new RcpError(ErrorCode.CapabilityMissing, `Capability missing: ${unmet}`) });
        await outcome.value.close();
      }
    }
    return { engines, failures };
  }

  /**
   * A Federation (§16.2) over the candidates matching the registry-field part of `criteria`.
   * Engines connect on first use and an engine that fails to connect is tried again next time,
   * so nothing here waits for the network.
   */
  federation(criteria: EngineCriteria<MethodsOf<C>> = {}, options: FederationOptions = {}): Federation<C> {
    const handles = this.candidates(criteria).map((entry) => new EngineHandle(entry, () => this.#open(entry)));
    return new Federation(this.#options.client.protocol, handles, options);
  }

  #transport(entry: EngineEntry): ClientTransport {
    if (entry.transport === "http") return httpClientTransport({ ...this.#options.http, url: entry.url! });
    const stdio = this.#options.stdio;
    if (stdio === undefined) {
      throw new RcpError(
        ErrorCode.BackendUnavailable,
        `Engine ${entry.id} is a stdio engine: pass a stdio connector (stdioConnector from @rcp-gen/runtime/node)`,
      );
    }
    return stdio(entry.command!, entry);
  }
}

function byPriority(a: { entry: EngineEntry; index: number }, b: { entry: EngineEntry; index: number }): number {
  return b.entry.priority - a.entry.priority || a.index - b.index;
}
