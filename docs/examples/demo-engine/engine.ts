/**
 * The demo engine's core: an in-memory retrieval engine over a snapshot store. Every
 * RCP/1 method the demo server offers is one call here; no protocol code lives in it.
 */
import { encodeF32Base64, invalidParams } from "@rcp-gen/runtime";
import corpus from "./corpus.json" with { type: "json" };
import { embed, embedSparse, EMBEDDING_DIMENSION, type SparseVector } from "./embedding.js";
import { FILTER_OPERATORS, type FilterSchema, type Metadata } from "./filter.js";
import { crossEncoderScore } from "./rerank.js";
import {
  runRetrieve,
  type PipelineControl,
  type RetrieveOutcome,
  type RetrieveRequest,
  type StageEvent,
} from "./retrieve.js";
import {
  DEFAULT_KEPT_SNAPSHOTS,
  SnapshotStore,
  storeDocument,
  type DocumentInput,
  type StoredDocument,
} from "./snapshots.js";
import { transformQuery, type TransformMethod } from "./transform.js";

export const DEMO_MAX_K = 50;
/** How many `index/add` idempotency keys the engine remembers (§7.10). */
export const REMEMBERED_IDEMPOTENCY_KEYS = 256;

export const DEMO_FILTER_SCHEMA: FilterSchema = {
  fields: { year: "int", lang: "keyword", tag: "keyword", published: "date", title: "text" },
  operators: FILTER_OPERATORS,
};

export interface EngineOptions {
  documents?: readonly DocumentInput[];
  keepSnapshots?: number;
}

export interface NewDocument {
  id?: string;
  text: string;
  meta?: Metadata;
}

export type VectorEncoding = "json" | "f32-base64";

export class DemoEngine {
  readonly #store: SnapshotStore;
  #mintedCount = 0;
  /** Results of recent keyed adds, oldest first (a Map keeps insertion order). */
  readonly #addsByKey = new Map<string, readonly string[]>();

  constructor(options: EngineOptions = {}) {
    const documents = options.documents ?? corpus;
    this.#store = new SnapshotStore(
      documents.map((document) => storeDocument(document, "corpus")),
      options.keepSnapshots ?? DEFAULT_KEPT_SNAPSHOTS,
    );
  }

  get indexVersion(): string {
    return this.#store.latest.version;
  }

  get documentCount(): number {
    return this.#store.latest.documents.size;
  }

  retrieve(request: RetrieveRequest, control?: PipelineControl): AsyncGenerator<StageEvent, RetrieveOutcome, void> {
    return runRetrieve(
      this.#store,
      request,
      { maxK: DEMO_MAX_K, filterSchema: DEMO_FILTER_SCHEMA, dimension: EMBEDDING_DIMENSION },
      control,
    );
  }

  /**
   * Upserts by id (§7.10): the returned ids line up with the input. A document without an id
   * gets a freshly minted one. Re-adding an identical document changes nothing, not even the
   * snapshot, so a retried write is observationally a single one. A repeated `idempotencyKey`
   * returns the first result without writing again, which makes id-less retries safe too.
   */
  add(documents: readonly NewDocument[], idempotencyKey?: string): { ids: string[]; indexVersion: string } {
    const remembered = idempotencyKey === undefined ? undefined : this.#addsByKey.get(idempotencyKey);
    if (remembered !== undefined) return { ids: [...remembered], indexVersion: this.indexVersion };
    const ids: string[] = [];
    this.#store.commit((draft) => {
      let changed = false;
      for (const input of documents) {
        const id = input.id ?? this.#mintId(draft);
        ids.push(id);
        const existing = draft.get(id);
        if (existing !== undefined && sameContent(existing, input)) continue;
        draft.set(id, storeDocument({ id, text: input.text, meta: input.meta ?? {} }, "client"));
        changed = true;
      }
      return changed;
    });
    if (idempotencyKey !== undefined) this.#remember(idempotencyKey, ids);
    return { ids, indexVersion: this.indexVersion };
  }

  /** Idempotent (§7.11): counts only documents this call actually removed. */
  delete(ids: readonly string[]): { deleted: number; indexVersion: string } {
    let deleted = 0;
    this.#store.commit((draft) => {
      for (const id of new Set(ids)) if (draft.delete(id)) deleted += 1;
      return deleted > 0;
    });
    return { deleted, indexVersion: this.indexVersion };
  }

  embed(
    texts: readonly string[],
    encoding: VectorEncoding = "json",
  ): { vectors: number[][] | string[]; dimension: number } {
    const vectors = texts.map(embed);
    return {
      vectors: encoding === "json" ? vectors.map((vector) => Array.from(vector)) : vectors.map(encodeF32Base64),
      dimension: EMBEDDING_DIMENSION,
    };
  }

  embedSparse(texts: readonly string[]): SparseVector[] {
    const { bm25 } = this.#store.latest;
    return texts.map((text) => embedSparse(text, bm25));
  }

  /** Scores every passage; `order` is best first, cut to `topN` when given. Ties keep input order. */
  rerank(query: string, passages: readonly string[], topN?: number): { scores: number[]; order: number[] } {
    if (topN !== undefined && !(Number.isSafeInteger(topN) && topN >= 0))
      throw invalidParams("topN", "must be a non-negative integer");
    const scores = passages.map((passage) => crossEncoderScore(query, passage));
    const order = scores
      .map((score, index) => ({ score, index }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .map(({ index }) => index);
    return { scores, order: topN === undefined ? order : order.slice(0, topN) };
  }

  transform(query: string, method: TransformMethod, n?: number): { queries: string[] } {
    if (n !== undefined && !(Number.isSafeInteger(n) && n >= 1)) throw invalidParams("n", "must be a positive integer");
    return { queries: transformQuery(query, method, n) };
  }

  /** Looks a stored document up in the latest snapshot (for tests and examples). */
  document(id: string): StoredDocument | undefined {
    return this.#store.latest.documents.get(id);
  }

  #remember(idempotencyKey: string, ids: readonly string[]): void {
    this.#addsByKey.set(idempotencyKey, ids);
    if (this.#addsByKey.size > REMEMBERED_IDEMPOTENCY_KEYS)
      this.#addsByKey.delete(this.#addsByKey.keys().next().value!);
  }

  #mintId(draft: ReadonlyMap<string, StoredDocument>): string {
    let id: string;
    do {
      this.#mintedCount += 1;
      id = `minted-${this.#mintedCount}`;
    } while (draft.has(id));
    return id;
  }
}

function sameContent(existing: StoredDocument, input: NewDocument): boolean {
  return existing.text === input.text && JSON.stringify(existing.meta) === JSON.stringify(input.meta ?? {});
}
