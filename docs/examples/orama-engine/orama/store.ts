/**
 * The engine's store: an Orama database (full-text BM25, vectors, filters, all in memory, pure
 * JavaScript) holding the documents. Retrieval, `index/add` and `index/delete` are calls on
 * it; this module knows nothing of RCP's wire format, which the generated server and the
 * runtime handle. What it adds is what Orama leaves to its caller: checking metadata before it
 * reaches an index, progress between the searches of a hybrid query, and stopping when the
 * request is cancelled.
 */
import { create, getByID, insert, remove, search } from "@orama/orama";
import { invalidParams } from "@rcp-gen/runtime";
import { embed, EMBEDDING_DIMENSION } from "./embedding.js";
import { epochMs, toOramaWhere, type OramaWhere } from "./filter.js";
import type { DocumentMeta, GardenDocument } from "./documents.js";

export type SearchMode = "sparse" | "dense" | "hybrid";

/** The retrieve options the store honours; the capabilities the engine advertises say the same. */
export interface SearchRequest {
  query: string;
  k: number;
  mode?: SearchMode;
  filter?: unknown;
  minScore?: number;
  includeText?: boolean;
}

export interface StoreHit {
  id: string;
  score: number;
  text?: string;
  meta: DocumentMeta;
  citation: { source: string; title: string };
}

/** One search done: a progress event whose partial holds that search's hits. */
export interface SearchStage {
  stage: SearchMode;
  progress: number;
  message: string;
  partial: { hits: StoreHit[] };
}

export interface SearchControl {
  /** Aborted when the request is cancelled or its deadline passes: the search stops at the next stage. */
  signal: AbortSignal;
  /** Awaited before each search (tests use it to make a search slow enough to cancel). */
  beforeStage?: () => Promise<void>;
}

export interface NewDocument {
  id?: string;
  text: string;
  meta?: object;
}

/** Cosine similarity below which a vector search keeps no document (Orama's default, 0.8, suits real models). */
const MIN_SIMILARITY = 0.1;

const oramaSchema = {
  title: "string",
  text: "string",
  lang: "enum",
  year: "number",
  published: "number",
  tags: "enum[]",
  embedding: `vector[${EMBEDDING_DIMENSION}]`,
} as const;

export class OramaStore {
  readonly #db = create({ schema: oramaSchema });
  #minted = 0;

  /** A store holding `documents`, their metadata checked as index/add checks it. (Orama's writes may return promises, with asynchronous plugins: they are awaited.) */
  static async open(documents: readonly GardenDocument[]): Promise<OramaStore> {
    const store = new OramaStore();
    for (const [index, { id, text, meta, title }] of documents.entries())
      await insert(store.#db, row(id, text, checkedMeta(meta, `documents.${index}.meta`), title));
    return store;
  }

  private constructor() {}

  /**
   * Searches, yielding each search's hits as progress: a hybrid query runs the full-text search,
   * then the vector search, then Orama's hybrid search, whose hits are the result.
   */
  async *retrieve(request: SearchRequest, control: SearchControl): AsyncGenerator<SearchStage, StoreHit[], void> {
    const where = request.filter === undefined ? undefined : toOramaWhere(request.filter);
    const mode = request.mode ?? "hybrid";
    const stages: SearchMode[] = mode === "hybrid" ? ["sparse", "dense", "hybrid"] : [mode];
    // A query without a word would make Orama list every document: it matches none.
    const searchable = /[\p{L}\p{N}]/u.test(request.query);
    let hits: StoreHit[] = [];
    for (const [index, stage] of stages.entries()) {
      await control.beforeStage?.();
      // A macrotask between searches lets a cancel that arrived meanwhile abort the signal.
      await new Promise((resolve) => setImmediate(resolve));
      control.signal.throwIfAborted();
      hits = searchable ? await this.#search(stage, request, where) : [];
      if (index < stages.length - 1)
        yield {
          stage,
          progress: (index + 1) / stages.length,
          message: `${stage} search: ${hits.length} hits`,
          partial: { hits },
        };
    }
    return hits;
  }

  /** Upserts by id (§7.10); every document is checked before any is written. Returns the ids in input order. */
  async add(documents: readonly NewDocument[]): Promise<string[]> {
    const rows = documents.map((document, index) => {
      const meta = checkedMeta(document.meta ?? {}, `documents.${index}.meta`);
      return row(document.id ?? this.#mintId(), document.text, meta);
    });
    for (const next of rows) {
      if (getByID(this.#db, next.id) !== undefined) await remove(this.#db, next.id);
      await insert(this.#db, next);
    }
    return rows.map((next) => next.id);
  }

  /** Idempotent (§7.11): counts only the documents this call removed. */
  async delete(ids: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const id of new Set(ids))
      if (getByID(this.#db, id) !== undefined && (await remove(this.#db, id))) deleted += 1;
    return deleted;
  }

  get(id: string): { id: string; text: string; meta: DocumentMeta } | undefined {
    const found = getByID(this.#db, id) as Row | undefined;
    return found && { id: found.id, text: found.text, meta: found.meta };
  }

  async #search(stage: SearchMode, request: SearchRequest, where: OramaWhere | undefined): Promise<StoreHit[]> {
    const common = { limit: request.k, ...(where === undefined ? {} : { where }) };
    const vector = { value: embed(request.query), property: "embedding" };
    const found = await (stage === "sparse"
      ? search(this.#db, { term: request.query, ...common })
      : stage === "dense"
        ? search(this.#db, { mode: "vector", vector, similarity: MIN_SIMILARITY, ...common })
        : search(this.#db, { mode: "hybrid", term: request.query, vector, similarity: MIN_SIMILARITY, ...common }));
    const minScore = request.minScore ?? Number.NEGATIVE_INFINITY;
    return found.hits
      .filter((hit) => hit.score >= minScore)
      .map((hit) => toHit(hit.document as unknown as Row, hit.score, request.includeText ?? true));
  }

  #mintId(): string {
    let id: string;
    do id = `added-${++this.#minted}`;
    while (getByID(this.#db, id) !== undefined);
    return id;
  }
}

/** What Orama stores per document: the indexed properties, plus the metadata as given, returned in hits. */
interface Row {
  id: string;
  title: string;
  text: string;
  lang?: string;
  year?: number;
  published?: number;
  tags?: string[];
  embedding: number[];
  meta: DocumentMeta;
}

/** An added document's title is its metadata's `title`, when it has one: the citation names it. */
function row(id: string, text: string, meta: DocumentMeta & { title?: unknown }, title = meta.title): Row {
  const { lang, year, published, tags } = meta;
  return {
    id,
    title: typeof title === "string" ? title : "",
    text,
    ...(lang === undefined ? {} : { lang }),
    ...(year === undefined ? {} : { year }),
    ...(published === undefined ? {} : { published: epochMs(published, "published") }),
    ...(tags === undefined ? {} : { tags }),
    embedding: embed(text),
    meta,
  };
}

/** Orama returns the stored object as it was inserted: a Row (its own type knows only the schema's properties). */
function toHit({ id, title, text, meta }: Row, score: number, includeText: boolean): StoreHit {
  return {
    id,
    score,
    ...(includeText ? { text } : {}),
    meta,
    citation: { source: "orama", title },
  };
}

/** Metadata the indexes can take: a filterable key of the wrong type is -32602 naming it, before anything is written. */
function checkedMeta(meta: object, at: string): DocumentMeta {
  const { lang, year, published, tags } = meta as Record<string, unknown>;
  if (lang !== undefined && typeof lang !== "string") throw invalidParams(`${at}.lang`, "lang must be a string");
  if (year !== undefined && !Number.isSafeInteger(year)) throw invalidParams(`${at}.year`, "year must be an integer");
  if (published !== undefined) epochMs(published, `${at}.published`);
  if (tags !== undefined && !(Array.isArray(tags) && tags.every((tag) => typeof tag === "string")))
    throw invalidParams(`${at}.tags`, "tags must be an array of strings");
  return meta;
}
