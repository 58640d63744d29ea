/**
 * `retrieve` over the store, as a handler body: the query's text, the store's searches
 * forwarded as progress frames (each with that search's hits) and log lines, and the options
 * `strict: false` dropped noted in the result (§7.7).
 */
import { ErrorCode, fallbackNote, RcpError, type HandlerContext, type ProgressEvent } from "@rcp-gen/runtime";
import type { SearchMode, SearchStage, StoreHit, OramaStore } from "./store.js";

/** The retrieve params the store reads; the generated RetrieveParams fit it. */
export interface RetrieveInput {
  query: unknown;
  k: number;
  mode?: string;
  filter?: unknown;
  minScore?: number;
  includeText?: boolean;
}

export async function* retrieveFrom(
  store: OramaStore,
  params: RetrieveInput,
  ctx: HandlerContext,
  beforeStage?: () => Promise<void>,
): AsyncGenerator<ProgressEvent<SearchStage["partial"]>, { hits: StoreHit[]; usage?: { notes: string[] } }, void> {
  const { k, mode, filter, minScore, includeText } = params;
  const request = {
    query: queryText(params.query),
    k,
    mode: mode as SearchMode | undefined,
    filter,
    minScore,
    includeText,
  };
  const run = store.retrieve(request, { signal: ctx.signal, ...(beforeStage ? { beforeStage } : {}) });
  for (;;) {
    const step = await run.next();
    if (step.done) {
      const hits = step.value;
      return ctx.degraded.length === 0 ? { hits } : { hits, usage: { notes: ctx.degraded.map(fallbackNote) } };
    }
    ctx.log("info", { stage: step.value.stage, message: step.value.message }, "orama-engine");
    yield step.value;
  }
}

/** The engine is text only: a string, or text content blocks; any other block is an unadvertised modality (§4.8). */
function queryText(query: unknown): string {
  if (typeof query === "string") return query;
  const blocks = (Array.isArray(query) ? query : [query]) as Array<{ type?: unknown; text?: unknown }>;
  return blocks
    .map((block, index) => {
      if (block.type === "text" && typeof block.text === "string") return block.text;
      throw new RcpError(ErrorCode.OptionUnsupported, "Option unsupported: modality", {
        option: "modality",
        field: Array.isArray(query) ? `query.${index}` : "query",
        detail: `a ${String(block.type)} block; this engine takes text only`,
      });
    })
    .join(" ");
}
