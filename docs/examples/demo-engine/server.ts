/**
 * The demo engine as an RCP/1 server: the generated handler interface implemented over the
 * engine core. No protocol code here: the generated server and the runtime do framing,
 * sessions, gates, clamps, validation, progress and cancellation.
 */
import { createServer, type HandlersFor } from "../../../generated/server.js";
import {
  ErrorCode,
  fallbackNote,
  invalidParams,
  RcpError,
  type HandlerContext,
  type ProgressEvent,
} from "@rcp-gen/runtime";
import { demoCapabilities, EMBED_BATCH_LIMIT, RERANK_MAX_CANDIDATES } from "./capabilities.js";
import { DemoEngine } from "./engine.js";
import type { FilterOperator } from "./filter.js";
import type { RetrieveOutcome, RetrieveRequest, StageEvent } from "./retrieve.js";

export const DEMO_SERVER_INFO = { name: "rcp-demo-engine", version: "0.1.0" };
/** `_meta` key asking the demo to sleep this many milliseconds before each pipeline stage. */
export const STAGE_DELAY_META_KEY = "x-demo-delayMs";
const LOGGER = "demo-engine";

/** Options the demo accepts but ignores; the result says so instead of pretending (§7.7 usage.notes). */
const IGNORED_HINTS = ["recency", "level", "sessionId"] as const;

type Capabilities = ReturnType<typeof demoCapabilities>;
type Handlers = HandlersFor<Capabilities>;
type QueryInput = Parameters<NonNullable<Handlers["retrieve"]>>[0]["query"];

export interface DemoServerOptions {
  engine?: DemoEngine;
  /** Advertise only these filter operators (default: all of §8). */
  filterOperators?: readonly FilterOperator[];
  /** Processing caps beyond the advertised ones (§15.5); each left out keeps its `DEMO_LIMITS` value. */
  limits?: Partial<DemoLimits>;
  /** Offer resumable SSE streams (docs/resumable-streams.md). Default off. */
  resumable?: boolean;
}

/** What one request may make the demo process, past which it answers -32602 naming the field (§15.5). */
export interface DemoLimits {
  /** Characters of all `rerank` passages together. */
  maxRerankCharacters: number;
}

export const DEMO_LIMITS: DemoLimits = { maxRerankCharacters: 1_000_000 };

export function createDemoServer(options: DemoServerOptions = {}): ReturnType<typeof createServer> {
  return createServer({
    info: DEMO_SERVER_INFO,
    capabilities: demoCapabilities(options.filterOperators),
    // L2 (§14.3): hybrid + filter + citations, plus rerank, sparseEmbed, transform, streaming,
    // pagination, log and deterministic snapshots, each checked by test/demo/server-conformance.test.ts.
    conformance: "L2",
    handlers: demoHandlers(options.engine ?? new DemoEngine(), { ...DEMO_LIMITS, ...options.limits }),
    ...(options.resumable === true ? { http: { resumable: true } } : {}),
  });
}

export function demoHandlers(engine: DemoEngine, limits: DemoLimits = DEMO_LIMITS): Handlers {
  return {
    async *retrieve(params, ctx) {
      const { query, _meta: _sideBand, strict: _strict, ...options } = params;
      const request = { ...options, query: textOf(query, "query") } as RetrieveRequest;
      const run = engine.retrieve(request, { signal: ctx.signal, stageDelayMs: stageDelay(ctx.meta) });
      const outcome = yield* reportStages(run, ctx);
      const notes = [
        ...ctx.degraded.map(fallbackNote),
        ...IGNORED_HINTS.filter((hint) => params[hint] !== undefined).map((hint) => `${hint}: accepted, not applied`),
      ];
      return notes.length === 0 ? outcome : { ...outcome, usage: { ...outcome.usage, notes } };
    },

    embed(params) {
      const inputs = params.inputs ?? [];
      if (inputs.length > EMBED_BATCH_LIMIT) {
        throw new RcpError(ErrorCode.PayloadTooLarge, "Payload too large: embed.batchLimit exceeded", {
          field: "inputs",
          detail: `${inputs.length} inputs; embed.batchLimit is ${EMBED_BATCH_LIMIT}`,
        });
      }
      const encoding = params.encoding ?? "json";
      const texts = inputs.map((input, index) => textOf(input, `inputs.${index}`));
      return { ...engine.embed(texts, encoding), encoding };
    },

    "embed/sparse"(params) {
      return { sparse: engine.embedSparse(params.texts) };
    },

    rerank(params) {
      if (params.passages.length > RERANK_MAX_CANDIDATES) {
        throw invalidParams(
          "passages",
          `${params.passages.length} passages; rerank.maxCandidates is ${RERANK_MAX_CANDIDATES}`,
        );
      }
      const passages = params.passages.map((passage, index) => textOf(passage, `passages.${index}`));
      const characters = passages.reduce((total, passage) => total + passage.length, 0);
      if (characters > limits.maxRerankCharacters) {
        throw invalidParams(
          "passages",
          `${characters} characters of passages; this server reranks at most ${limits.maxRerankCharacters} per call`,
        );
      }
      return engine.rerank(textOf(params.query, "query"), passages, params.topN);
    },

    "query/transform"(params) {
      return engine.transform(
        textOf(params.query, "query"),
        params.method as "rewrite" | "multi-query" | "decompose",
        params.n,
      );
    },

    "index/add"(params, ctx) {
      const key = ctx.meta["idempotencyKey"];
      return { ids: engine.add(params.documents, typeof key === "string" ? key : undefined).ids };
    },

    "index/delete"(params) {
      return { deleted: engine.delete(params.ids).deleted };
    },
  };
}

/** Forwards each engine stage as one progress event and one log line; returns the engine's outcome. */
async function* reportStages(
  run: AsyncGenerator<StageEvent, RetrieveOutcome, void>,
  ctx: HandlerContext,
): AsyncGenerator<ProgressEvent<StageEvent["partial"]>, RetrieveOutcome, void> {
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
    const { stage, progress, message, partial } = step.value;
    ctx.log("info", { stage, message }, LOGGER);
    yield { progress, stage, message, partial };
  }
}

/** A text-only server takes strings and text blocks; any other block is an unadvertised modality (§4.8). */
function textOf(input: QueryInput, field: string): string {
  if (typeof input === "string") return input;
  const blocks = Array.isArray(input) ? input : [input];
  return blocks
    .map((block, index) => {
      if (block.type !== "text" || typeof block.text !== "string") {
        const at = Array.isArray(input) ? `${field}.${index}` : field;
        throw new RcpError(ErrorCode.OptionUnsupported, "Option unsupported: modality", {
          option: "modality",
          field: at,
          detail: `a ${block.type} block; this server advertises text only`,
        });
      }
      return block.text;
    })
    .join(" ");
}

function stageDelay(meta: Readonly<Record<string, unknown>>): number {
  const delay = meta[STAGE_DELAY_META_KEY];
  if (delay === undefined) return 0;
  if (typeof delay !== "number" || !Number.isFinite(delay) || delay < 0 || delay > 60_000) {
    throw invalidParams(`_meta.${STAGE_DELAY_META_KEY}`, "must be a number of milliseconds in [0, 60000]");
  }
  return delay;
}
