/**
 * What a check sees: the transport, the protocol under test, what the server advertised,
 * the session of the current phase, and helpers to build frames, call methods with valid
 * params and read answers. Checks say what to send and what to expect; this says how.
 */
import type { ProtocolDescriptor } from "@rcp-gen/runtime";
import { getPath, validateFrame, type ValidateFrameOptions } from "@rcp-gen/runtime/testing";
import type { ExampleSet } from "../targets/shared/examples.js";
import type { LoadedSchemaFolder } from "../load/loader.js";
import { truthy } from "./advertised.js";
import { noHits, type ProbeQuery } from "./probe-query.js";
import { ParamsSampler } from "./sample.js";
import type { Exchange, Frame, Ledger, Session, Transport } from "./session.js";
import type { Verdict } from "./verdict.js";

type Json = Record<string, unknown>;

export interface ConformOptions {
  /**
   * The query of retrieval calls, sent as it is; default `conform.query` in the project's
   * settings, else one the engine finds hits for (see probe-query.ts).
   */
  readonly query?: string;
  /** How long to wait for any one answer. */
  readonly timeoutMs: number;
  /**
   * `_meta` members that make the server's calls slow (e.g. `{"x-demo-delayMs": 200}`): the
   * cancel and deadline checks then expect -32006 and -32014 instead of accepting a result.
   */
  readonly slowMeta?: Json;
}

export class ConformContext {
  session: Session;
  /** What the server advertised: from info in the handshake, from initialize afterwards. */
  capabilities: Json = {};
  /** `_meta.conformance` as the server declared it. */
  declaredLevel: unknown;
  /** The `server` member of the main session's initialize result. */
  serverInfo: unknown;
  /** Why the main session could not be initialized, when it could not. */
  initializeFailure: string | undefined;
  /** What the report says beside the checks, e.g. a rule a verdict leaned on. */
  readonly notes: string[] = [];
  /** The query of retrieval calls; chosen again once the main session knows what is advertised. */
  query: ProbeQuery;
  #ids = 0;
  #sampler: { capabilities: Json; query: ProbeQuery; sampler: ParamsSampler } | undefined;

  constructor(
    readonly transport: Transport,
    readonly protocol: ProtocolDescriptor,
    readonly folder: LoadedSchemaFolder,
    readonly options: ConformOptions,
    readonly ledger: Ledger,
    session: Session,
    private readonly open: () => Promise<Session>,
    query: ProbeQuery,
    /** Examples of params to probe with (the project's examples folder). */
    readonly examples?: ExampleSet,
  ) {
    this.session = session;
    this.query = query;
  }

  /** A request id nobody else uses in this run. */
  id(label: string): string {
    return `conform-${label}-${++this.#ids}`;
  }

  request(method: string, params: Json = {}, id: string | number = this.id(method.replace(/\W/g, "-"))): Frame {
    return { jsonrpc: "2.0", id, method, params };
  }

  notification(method: string, params: Json = {}): Frame {
    return { jsonrpc: "2.0", method, params };
  }

  /** Calls `method` on the current session; `meta` is merged into `params._meta`. */
  call(
    method: string,
    params: Json = {},
    options: { stream?: boolean; meta?: Json; id?: string | number } = {},
  ): Promise<Exchange> {
    const withMeta =
      options.meta === undefined ? params : { ...params, _meta: { ...(params._meta as Json), ...options.meta } };
    return this.session.call(this.request(method, withMeta, options.id), { stream: options.stream === true });
  }

  /** Another session of the same server (stdio: another process); the caller closes it. */
  openSession(): Promise<Session> {
    return this.open();
  }

  /** Methods a server implements (not answered by the session itself), in schema order. */
  userMethods(): string[] {
    return Object.values(this.protocol.methods)
      .filter((descriptor) => descriptor.lifecycle === undefined)
      .map((descriptor) => descriptor.method);
  }

  /**
   * The symbol of the error `exchange` was answered with when `method`'s schema documents it
   * (`x-rcp.errors`): a domain error such as NotFound is a correct answer to a probe, whose
   * params may name nothing the engine holds.
   */
  documentedError(method: string, exchange: Exchange): string | undefined {
    const code = errorCode(exchange);
    const symbol = this.folder.errors.find((error) => error.code === code)?.symbol;
    const documented = this.folder.methods.find((entry) => entry.method === method)?.annotation.errors ?? [];
    return symbol !== undefined && documented.includes(symbol) ? symbol : undefined;
  }

  /** Whether the server advertised what `method` needs: its capability and any `requires` path. */
  advertises(method: string): boolean {
    const descriptor = this.protocol.methods[method];
    if (descriptor === undefined || descriptor.capability === null) return descriptor !== undefined;
    if (this.capabilities[descriptor.capability] === undefined) return false;
    return descriptor.requires === undefined || truthy(getPath(this.capabilities, descriptor.requires));
  }

  advertisedMethods(): string[] {
    return this.userMethods().filter((method) => this.advertises(method));
  }

  /** Advertised methods valid params can be built for, with those params, in schema order. */
  callable(): Array<{ method: string; params: Json }> {
    return this.advertisedMethods().flatMap((method) => {
      const built = this.validParams(method);
      return "params" in built ? [{ method, params: built.params }] : [];
    });
  }

  /** Params the schema and the advertised metadata say are valid for `method`. */
  validParams(method: string): { params: Json } | { reason: string } {
    return this.sampler().validParams(method);
  }

  sampler(): ParamsSampler {
    if (this.#sampler?.capabilities !== this.capabilities || this.#sampler.query !== this.query)
      this.#sampler = {
        capabilities: this.capabilities,
        query: this.query,
        sampler: new ParamsSampler(this.folder, this.protocol, this.capabilities, this.query, this.examples),
      };
    return this.#sampler.sampler;
  }

  /** The first advertised method valid params can be built for (see probes). */
  probe(options: { streaming?: boolean } = {}): { method: string; params: Json } | undefined {
    return this.probes(options)[0];
  }

  /**
   * Advertised methods with valid params, the likeliest to take time first: `retrieve` (the
   * workhorse, §7.7), then other streaming methods, then the rest.
   */
  probes(options: { streaming?: boolean } = {}): Array<{ method: string; params: Json }> {
    const rank = (method: string) => (method === "retrieve" ? 0 : this.protocol.methods[method]!.streaming ? 1 : 2);
    return this.callable()
      .filter(({ method }) => options.streaming !== true || this.protocol.methods[method]!.streaming)
      .sort((a, b) => rank(a.method) - rank(b.method));
  }

  /** The query of the level checks (see probe-query.ts). */
  get levelQuery(): string {
    return this.query.levelQuery;
  }

  /**
   * The text of the first hit `retrieve` (dense or the default mode) finds for `query`: ""
   * for a hit without text, undefined when it finds none or fails.
   */
  async firstHitText(query: string): Promise<string | undefined> {
    const hits = resultOf(await this.call("retrieve", { query, k: 1 }))?.hits;
    if (!Array.isArray(hits) || hits.length === 0) return undefined;
    const text = (hits[0] as { text?: unknown }).text;
    return typeof text === "string" ? text : "";
  }

  /**
   * Inconclusive when `result` (of a call with `params`) holds no hits: a call that found
   * nothing had no work for a deadline or a cancel to cut short.
   */
  noHits(result: unknown, params: Json): Verdict | undefined {
    const hits = (result as { hits?: unknown } | undefined)?.hits;
    const query = typeof params.query === "string" ? params.query : this.query.text;
    return Array.isArray(hits) && hits.length === 0 ? noHits(query) : undefined;
  }

  /** validateFrame's problems with `frame`, one line each; none when it is valid. */
  problems(frame: unknown, options: Omit<ValidateFrameOptions, "protocol"> = {}): string[] {
    const check = validateFrame(frame, { ...options, protocol: this.protocol });
    return check.ok ? [] : check.errors.map((problem) => problem.message);
  }
}

/** The error code of an exchange's response, if it is an error. */
export function errorCode(exchange: Exchange): number | undefined {
  const error = exchange.response?.error as { code?: unknown } | undefined;
  return typeof error?.code === "number" ? error.code : undefined;
}

export function resultOf(exchange: Exchange): Json | undefined {
  const result = exchange.response?.result;
  return typeof result === "object" && result !== null && !Array.isArray(result) ? (result as Json) : undefined;
}

/** How an exchange ended, for a report line. */
export function outcome(exchange: Exchange): string {
  if (exchange.response === undefined) return "no answer";
  const code = errorCode(exchange);
  if (code !== undefined) {
    const message = (exchange.response.error as { message?: unknown }).message;
    return `error ${code}${typeof message === "string" ? ` "${message.slice(0, 80)}"` : ""}`;
  }
  return "a result";
}
