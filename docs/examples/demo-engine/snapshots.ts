/**
 * Immutable corpus snapshots (§7.7.1 `indexVersion`). Every write that changes the corpus
 * commits a new snapshot; the last few stay servable so pinned retrievals and open cursors
 * keep working, and pinning one that was collected is -32010.
 */
import { RcpError, ErrorCode } from "@rcp-gen/runtime";
import { buildBm25, type Bm25Index } from "./bm25.js";
import { embed } from "./embedding.js";
import type { Metadata } from "./filter.js";
import { contentTerms, hash64 } from "./text.js";

export interface DocumentInput {
  id: string;
  text: string;
  title?: string;
  uri?: string;
  meta?: Metadata;
}

export interface StoredDocument extends DocumentInput {
  meta: Metadata;
  /** Shipped with the demo corpus, or written by a client through `index/add`. */
  origin: "corpus" | "client";
  /** What filters see: the metadata plus the title as a `text` field. */
  filterable: Metadata;
  terms: readonly string[];
  vector: Float32Array;
}

export interface Snapshot {
  readonly version: string;
  /** Insertion order is the corpus order; an upsert keeps its document's place. */
  readonly documents: ReadonlyMap<string, StoredDocument>;
  readonly bm25: Bm25Index;
}

export const DEFAULT_KEPT_SNAPSHOTS = 4;

export function storeDocument(input: DocumentInput, origin: StoredDocument["origin"]): StoredDocument {
  const body = input.title === undefined ? input.text : `${input.title} ${input.text}`;
  const meta = input.meta ?? {};
  const filterable = input.title === undefined ? meta : { ...meta, title: input.title };
  return { ...input, meta, origin, filterable, terms: contentTerms(body), vector: embed(body) };
}

export class SnapshotStore {
  readonly #kept: Snapshot[] = [];
  readonly #keep: number;
  #counter = 0;

  constructor(documents: readonly StoredDocument[], keep = DEFAULT_KEPT_SNAPSHOTS) {
    this.#keep = Math.max(1, keep);
    this.#push(new Map(documents.map((document) => [document.id, document])));
  }

  get latest(): Snapshot {
    return this.#kept[this.#kept.length - 1]!;
  }

  /** The pinned snapshot, or the latest when none is pinned; never a different one (§7.7.1). */
  resolve(version: string | undefined): Snapshot {
    if (version === undefined) return this.latest;
    const found = this.#kept.find((snapshot) => snapshot.version === version);
    if (found !== undefined) return found;
    throw new RcpError(ErrorCode.BackendUnavailable, "Backend unavailable: indexVersion is not servable", {
      field: "indexVersion",
      detail: `snapshot ${JSON.stringify(version)} was garbage-collected or never existed; latest is ${this.latest.version}`,
      retryable: false,
    });
  }

  /** Applies `mutate` to a copy of the latest documents; commits a snapshot only when it reports a change. */
  commit(mutate: (documents: Map<string, StoredDocument>) => boolean): Snapshot {
    const draft = new Map(this.latest.documents);
    if (mutate(draft)) this.#push(draft);
    return this.latest;
  }

  #push(documents: Map<string, StoredDocument>): void {
    this.#counter += 1;
    const bm25 = buildBm25([...documents.values()].map(({ id, terms }) => ({ id, terms })));
    this.#kept.push({ version: `v${this.#counter}.${contentHash(documents)}`, documents, bm25 });
    while (this.#kept.length > this.#keep) this.#kept.shift();
  }
}

/**
 * Ties a version token to the corpus it names, so a token from another process (same counter,
 * different writes) can never select a different corpus silently (§7.7.1).
 */
function contentHash(documents: ReadonlyMap<string, StoredDocument>): string {
  const canonical = [...documents.values()]
    .map(({ id, title, text, meta }) => JSON.stringify([id, title ?? null, text, meta]))
    .join("\n");
  return hash64(canonical);
}
