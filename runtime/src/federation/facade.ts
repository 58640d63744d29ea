/**
 * The Federation facade (§16): a `retrieve` fanned out to every engine concurrently, fused
 * into one ranking (§16.3) tagged by origin, shaped like any engine's answer. Partial failure
 * as §16.2 says: the call succeeds when any engine answered (the others named in `usage.notes`
 * and `_meta.degraded`), fails with a required engine's own error, and is -32010 when nothing
 * answered, whatever each engine's failure was. Cancelling it cancels every engine's call.
 */
import type { JsonObject } from "../protocol/types.js";
import { ErrorCode, RcpError, invalidParams } from "../protocol/errors.js";
import { getPath, isRecord } from "../protocol/dotted-paths.js";
import { validationError } from "../server/params.js";
import type { MethodDescriptor, ProtocolDescriptor, ShapeCheck } from "../protocol/descriptor.js";
import { budgetOf, Deadline, DEFAULT_HOP_BUDGET, nextHop } from "./budget.js";
import { federatedCapabilities, type CapabilityRule } from "./capabilities.js";
import { catalogOf, type CatalogEntry } from "./catalog.js";
import type { EngineClient, EngineHandle } from "./engine-handle.js";
import { asRcpError, cancelled } from "./errors.js";
import {
  describeOutcome,
  FederatedCall,
  NO_TIME_LEFT,
  type EngineOutcome,
  type FederatedCallOptions,
} from "./federated-call.js";
import { mergeAnswers, type EngineAnswer, type FederationFusion } from "./merge.js";
import type { CapabilitiesOf, CatalogOf, RetrieveOf } from "./types.js";

/** How a Federation fans out and fuses: fusion, deadlines, the hop budget, its identity as an aggregator. */
export interface FederationOptions {
  /**
   * This aggregator's identity on `_meta.federation.path` (§16.2). Set it when the federation
   * answers requests as a server: it then refuses a request whose path already holds it (a
   * cycle) or whose depth is 0. Leave it unset in a client, which originates the hop budget.
   */
  identity?: string;
  /** The hop budget of a request that carries no `_meta.federation`; default 3 (§16.2). */
  hopBudget?: number;
  /** The time a call may take when neither `timeout` nor `_meta.deadlineMs` says; default 30 000 ms. */
  defaultDeadlineMs?: number;
  /** Milliseconds kept back from the engines for fusing and answering; default 5% of the budget, within 5..100. */
  reserveMs?: number;
  /** Default `{ method: "rrf" }` (§16.3). */
  fusion?: FederationFusion;
  /**
   * Let engine failures in `usage.notes` and `error.data.engines` say where the engine is (its
   * URL, its command), as `catalog({ endpoints: true })` lists them. Default false: a failure
   * says only that the engine could not be reached.
   */
  exposeEndpoints?: boolean;
}

const DEFAULT_DEADLINE_MS = 30_000;
const FANNED_OUT_METHOD = "retrieve";
const CATALOG_METHOD = "catalog/list";

/** Fans a `retrieve` out to several engines and fuses their answers (§16.2, §16.3); made by `Selector.federation()`. */
export class Federation<C extends EngineClient> {
  /** Per-engine handles, highest priority first: `handle.client` is that engine's own typed client. */
  readonly engines: readonly EngineHandle<C>[];
  readonly #descriptor: MethodDescriptor;
  readonly #catalogResult: ShapeCheck | undefined;
  readonly #options: FederationOptions;

  constructor(protocol: ProtocolDescriptor, engines: readonly EngineHandle<C>[], options: FederationOptions = {}) {
    const descriptor = protocol.methods[FANNED_OUT_METHOD];
    if (descriptor === undefined) throw new TypeError(`This protocol has no ${FANNED_OUT_METHOD} method to federate`);
    this.#descriptor = descriptor;
    this.#catalogResult = protocol.methods[CATALOG_METHOD]?.result;
    this.engines = engines;
    this.#options = options;
  }

  /** Connects every engine now (a server does this at start-up); the failures are returned, not thrown. */
  async connect(): Promise<{ id: string; error: RcpError }[]> {
    const settled = await Promise.allSettled(this.engines.map((handle) => handle.connect()));
    return settled.flatMap((outcome, index) =>
      outcome.status === "fulfilled" ? [] : [{ id: this.engines[index]!.id, error: asRcpError(outcome.reason) }],
    );
  }

  /** The federation's capabilities over its connected engines (§16.4). */
  capabilities(rule: CapabilityRule = "union"): CapabilitiesOf<C> {
    return federatedCapabilities(this.#connected(), rule) as CapabilitiesOf<C>;
  }

  /** A `catalog/list` result (§7.13) over the connected engines; endpoints only when asked to expose them. */
  catalog(options: { endpoints?: boolean } = {}): CatalogOf<C>["result"] {
    const engines: CatalogEntry[] = catalogOf(this.#connected(), options.endpoints ?? false, this.#catalogResult);
    return { engines };
  }

  /** Closes every engine's client. */
  async close(): Promise<void> {
    await Promise.all(this.engines.map((handle) => handle.close()));
  }

  /** A federated `retrieve` (§16.2), typed by the generated client's params and result. */
  async retrieve(
    params: RetrieveOf<C>["params"],
    options: FederatedCallOptions<RetrieveOf<C>["partial"]> = {},
  ): Promise<RetrieveOf<C>["result"]> {
    const started = performance.now();
    const request = params as JsonObject;
    const descriptor = this.#descriptor;
    if (!descriptor.params(request)) throw validationError(descriptor.params);
    const cursor = descriptor.pagination?.cursor;
    if (cursor !== undefined && getPath(request, cursor) !== undefined) {
      throw invalidParams(cursor, "a cursor belongs to one engine; federated results are not paginated (§10, §16)");
    }
    const received = isRecord(request._meta) ? request._meta : {};
    const hop = nextHop(received.federation, this.#options.identity, this.#options.hopBudget ?? DEFAULT_HOP_BUDGET);
    const budget = budgetOf(
      options.timeout,
      received.deadlineMs,
      this.#options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS,
    );
    const deadline = new Deadline(budget, this.#options.reserveMs);
    // Progress carries fused hits, which are the engines' own hits re-scored: the result's hit type.
    const untyped = options as FederatedCallOptions;
    const exposeEndpoints = this.#options.exposeEndpoints ?? false;
    const init = { descriptor, request, received, hop, deadline, options: untyped, exposeEndpoints };
    const call = new FederatedCall(this.engines, init);
    try {
      const outcomes = await call.run();
      if (options.signal?.aborted) throw cancelled(options.signal.reason);
      return this.#result(call.answers(), outcomes, request, started);
    } finally {
      call.stop();
    }
  }

  #connected(): { entry: EngineHandle<C>["entry"]; client: C }[] {
    return this.engines.flatMap((handle) =>
      handle.client === undefined ? [] : [{ entry: handle.entry, client: handle.client }],
    );
  }

  #result(
    answers: EngineAnswer[],
    outcomes: readonly EngineOutcome[],
    request: JsonObject,
    started: number,
  ): JsonObject {
    if (answers.length === 0) {
      if (outcomes.every((outcome) => outcome.status === "unsupported")) {
        throw new RcpError(
          ErrorCode.CapabilityMissing,
          `Capability missing: no engine advertises ${this.#descriptor.capability}`,
        );
      }
      const engines = outcomes.map((outcome) =>
        outcome.status === "answered" ? { id: outcome.id } : { id: outcome.id, ...outcome.error.toObject() },
      );
      // §13.1: a deadline too short to ask any engine at all is this request's own -32014.
      if (
        outcomes.every(
          (outcome) =>
            outcome.status === "unsupported" || (outcome.status === "timeout" && outcome.error === NO_TIME_LEFT),
        )
      ) {
        throw new RcpError(ErrorCode.Timeout, "Timeout: the deadline left no time to ask any engine", { engines });
      }
      // §16.2: when every engine asked fails, for any reason (a timeout too), the answer is
      // -32010, so "nothing answered" is told apart from "no results"; each engine's error is in data.
      throw new RcpError(ErrorCode.BackendUnavailable, "Backend unavailable: no engine answered", {
        retryable: true,
        engines,
      });
    }
    const merged = mergeAnswers(answers, this.#options.fusion ?? { method: "rrf" }, numberOr(request.k));
    const missing = outcomes.filter(
      (outcome): outcome is Exclude<EngineOutcome, { status: "answered" }> =>
        outcome.status !== "answered" && outcome.status !== "unsupported",
    );
    const notes = [
      ...missing.map((outcome) => `engine ${outcome.id}: ${describeOutcome(outcome)}`),
      ...answers.flatMap((answer) => (answer.result.usage?.notes ?? []).map((note) => `engine ${answer.id}: ${note}`)),
      ...merged.notes,
    ];
    return {
      hits: merged.hits,
      ...(merged.encoding === undefined ? {} : { encoding: merged.encoding }),
      ...(merged.dimension === undefined ? {} : { dimension: merged.dimension }),
      usage: {
        candidates: answers.reduce((sum, answer) => sum + answer.result.hits.length, 0),
        latencyMs: Math.round(performance.now() - started),
        ...(notes.length === 0 ? {} : { notes }),
      },
      ...(missing.length === 0 ? {} : { _meta: { degraded: missing.map((outcome) => outcome.id) } }),
    };
  }
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
