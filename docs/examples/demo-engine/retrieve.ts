/**
 * The retrieve pipeline (§3, §7.7) over one snapshot: transform → recall → fuse → rerank →
 * mmr → minScore → page. It yields one event per stage it runs (with the stage's leading
 * hits) and returns the page. No protocol code: the server maps these to progress frames.
 */
import { encodeF32Base64, ErrorCode, fuse, invalidParams, RcpError, type FusionMethod } from "@rcp-gen/runtime";
import { decodeCursor, encodeCursor, queryFingerprint } from "./cursor.js";
import { compileFilter, type FilterSchema } from "./filter.js";
import { mmrOrder } from "./mmr.js";
import { byScoreThenTie, recall, SCORE_FLOORS, tieBreakFor, type Retriever, type TieBreak } from "./recall.js";
import { crossEncoderScore } from "./rerank.js";
import type { Snapshot, SnapshotStore, StoredDocument } from "./snapshots.js";
import { transformQuery, type TransformMethod } from "./transform.js";

export type RetrievalMode = "dense" | "sparse" | "hybrid";
export type Stage = "transform" | "recall" | "fuse" | "rerank" | "mmr";

export interface RetrieveRequest {
  query: string;
  k: number;
  mode?: RetrievalMode;
  candidateK?: number;
  fusion?: { method?: FusionMethod; weights?: Partial<Record<Retriever, number>>; rrfK?: number; alpha?: number };
  rerank?: { method?: string; topN?: number } | false;
  mmr?: { lambda?: number } | false;
  rewrite?: TransformMethod | false;
  filter?: unknown;
  minScore?: number;
  includeText?: boolean;
  includeVectors?: boolean;
  /** How `hit.vector` travels when `includeVectors` is set (§7.3.1). */
  encoding?: "json" | "f32-base64";
  seed?: number;
  indexVersion?: string;
  cursor?: string;
}

export interface EngineHit {
  id: string;
  score: number;
  text?: string;
  meta: Record<string, unknown>;
  scores: Record<string, number>;
  citation: { source: string; uri?: string; title?: string };
  trust: { level: "trusted" | "community" };
  vector?: number[] | string;
}

export interface RetrieveOutcome {
  hits: EngineHit[];
  nextCursor?: string;
  indexVersion: string;
  usage: { candidates: number; reranked: number; latencyMs: number; notes?: string[] };
  rewrittenQuery?: string;
  encoding?: "json" | "f32-base64";
  dimension?: number;
}

export interface StageEvent {
  stage: Stage;
  progress: number;
  message: string;
  partial: { hits: Array<{ id: string; score: number }> };
}

export interface PipelineSettings {
  maxK: number;
  filterSchema: FilterSchema;
  dimension: number;
}

export interface PipelineControl {
  signal?: AbortSignal;
  /** Sleep this long before every stage (honouring `signal`), so callers can exercise cancellation. */
  stageDelayMs?: number;
}

interface Ranked {
  document: StoredDocument;
  score: number;
  scores: Record<string, number>;
}

export const DEFAULT_TOP_N = 20;
export const DEFAULT_MMR_LAMBDA = 0.5;
const PROGRESS: Readonly<Record<Stage, number>> = { transform: 0.1, recall: 0.35, fuse: 0.55, rerank: 0.75, mmr: 0.9 };

export async function* runRetrieve(
  store: SnapshotStore,
  request: RetrieveRequest,
  settings: PipelineSettings,
  control: PipelineControl = {},
): AsyncGenerator<StageEvent, RetrieveOutcome, void> {
  const started = performance.now();
  const matches = request.filter === undefined ? () => true : compileFilter(request.filter, settings.filterSchema);
  const { snapshot, offset, fingerprint } = resolvePage(store, request);
  const tieBreak = tieBreakFor(request.seed);
  const k = Math.min(request.k, settings.maxK);
  const candidateK = Math.min(request.candidateK ?? settings.maxK, settings.maxK);
  const pause = async (): Promise<void> => {
    const delayMs = control.stageDelayMs ?? 0;
    if (delayMs > 0) {
      // An abort ends the pause at once; the signal's own reason (cancel vs deadline) is thrown below.
      await pauseFor(delayMs, control.signal);
    }
    control.signal?.throwIfAborted();
  };
  const event = (stage: Stage, message: string, ranked: readonly Ranked[]): StageEvent => ({
    stage,
    progress: PROGRESS[stage],
    message,
    partial: { hits: ranked.slice(0, k).map(({ document, score }) => ({ id: document.id, score })) },
  });

  let queries = [request.query];
  if (request.rewrite) {
    await pause();
    queries = transformQuery(request.query, request.rewrite);
    yield {
      stage: "transform",
      progress: PROGRESS.transform,
      message: `${request.rewrite}: ${queries.join(" | ")}`,
      partial: { hits: [] },
    };
  }

  await pause();
  const mode = request.mode ?? "hybrid";
  const eligible = [...snapshot.documents.values()].filter((document) => matches(document.filterable));
  const retrievers: Retriever[] = mode === "hybrid" ? ["dense", "sparse"] : [mode];
  const lists = retrievers.map((retriever) => ({
    retriever,
    ranked: recall(retriever, queries, snapshot, eligible, candidateK, tieBreak).map(({ document, score }) => ({
      document,
      score,
      scores: { [retriever]: score },
    })),
  }));
  const counts = lists.map(({ retriever, ranked }) => `${retriever} ${ranked.length}`).join(", ");
  yield event("recall", `recalled ${counts} of ${eligible.length} eligible`, lists[0]!.ranked);

  let candidates = lists[0]!.ranked;
  if (mode === "hybrid") {
    await pause();
    candidates = fuseLists(lists, request.fusion ?? {}, candidateK);
    yield event("fuse", `fused ${candidates.length} by ${request.fusion?.method ?? "rrf"}`, candidates);
  }

  let ranked = candidates;
  let reranked = 0;
  if (request.rerank) {
    await pause();
    const topN = Math.min(request.rerank.topN ?? Math.max(k, Math.min(candidateK, DEFAULT_TOP_N)), candidateK);
    ranked = rerankTop(request.query, candidates.slice(0, topN), tieBreak);
    reranked = ranked.length;
    yield event("rerank", `reranked ${reranked}/${candidates.length}`, ranked);
  }

  if (request.mmr) {
    await pause();
    ranked = diversify(ranked, request.mmr.lambda ?? DEFAULT_MMR_LAMBDA, tieBreak);
    yield event("mmr", `diversified ${ranked.length} with lambda ${request.mmr.lambda ?? DEFAULT_MMR_LAMBDA}`, ranked);
  }

  const minScore = request.minScore;
  const kept = minScore === undefined ? ranked : ranked.filter((entry) => entry.score >= minScore);
  const page = kept.slice(offset, offset + k);
  const vectorEncoding = request.includeVectors ? (request.encoding ?? "json") : undefined;
  const outcome: RetrieveOutcome = {
    hits: page.map((entry) => toHit(entry, request.includeText ?? true, vectorEncoding)),
    indexVersion: snapshot.version,
    usage: { candidates: candidates.length, reranked, latencyMs: Math.round(performance.now() - started) },
  };
  if (k > 0 && offset + k < kept.length) {
    outcome.nextCursor = encodeCursor({ fingerprint, offset: offset + k, indexVersion: snapshot.version });
  }
  if (request.rewrite) outcome.rewrittenQuery = queries.join(" | ");
  if (vectorEncoding === "f32-base64") {
    Object.assign(outcome, { encoding: vectorEncoding, dimension: settings.dimension });
  }
  return outcome;
}

/** The snapshot and offset to serve: a cursor pins both; otherwise `indexVersion` or the latest. */
function resolvePage(
  store: SnapshotStore,
  request: RetrieveRequest,
): { snapshot: Snapshot; offset: number; fingerprint: string } {
  const fingerprint = queryFingerprint(request);
  if (request.cursor === undefined || request.cursor === "") {
    return { snapshot: store.resolve(request.indexVersion), offset: 0, fingerprint };
  }
  const cursor = decodeCursor(request.cursor);
  if (cursor.fingerprint !== fingerprint) throw invalidParams("cursor", "was issued for a different query or options");
  if (request.indexVersion !== undefined && request.indexVersion !== cursor.indexVersion) {
    throw invalidParams("indexVersion", "differs from the snapshot the cursor pages through");
  }
  try {
    return { snapshot: store.resolve(cursor.indexVersion), offset: cursor.offset, fingerprint };
  } catch {
    throw new RcpError(ErrorCode.NotFound, "Not found: cursor expired", {
      field: "cursor",
      detail: "the snapshot this cursor pages through was garbage-collected; restart pagination",
    });
  }
}

function fuseLists(
  lists: ReadonlyArray<{ retriever: Retriever; ranked: Ranked[] }>,
  fusion: NonNullable<RetrieveRequest["fusion"]>,
  candidateK: number,
): Ranked[] {
  const method = fusion.method ?? "rrf";
  for (const [retriever, weight] of Object.entries(fusion.weights ?? {})) {
    if (!(Number.isFinite(weight) && weight >= 0)) {
      throw invalidParams(`fusion.weights.${retriever}`, "must be a finite number >= 0");
    }
  }
  const weighted = method !== "convex" || fusion.alpha === undefined;
  const fused = fuse(
    lists.map(({ retriever, ranked }) => ({
      name: retriever,
      hits: ranked.map((entry) => ({ id: entry.document.id, score: entry.score, entry })),
      scoreFloor: SCORE_FLOORS[retriever],
      ...(weighted && fusion.weights?.[retriever] !== undefined ? { weight: fusion.weights[retriever] } : {}),
    })),
    { method, rrfK: fusion.rrfK, alpha: fusion.alpha, k: candidateK },
  );
  return fused.map(({ hit, score, contributions }) => ({
    document: hit.entry.document,
    score,
    scores: {
      ...Object.fromEntries(Object.entries(contributions).map(([name, contribution]) => [name, contribution.score])),
      fused: score,
    },
  }));
}

function rerankTop(query: string, top: readonly Ranked[], tieBreak: TieBreak): Ranked[] {
  const rescored = top.map((entry) => {
    const score = crossEncoderScore(query, bodyOf(entry.document));
    return { ...entry, score, scores: { ...entry.scores, rerank: score } };
  });
  return rescored.sort(byScoreThenTie(tieBreak));
}

function diversify(ranked: readonly Ranked[], lambda: number, tieBreak: TieBreak): Ranked[] {
  const candidates = ranked.map((entry) => ({
    key: entry.document.id,
    relevance: entry.score,
    vector: entry.document.vector,
    entry,
  }));
  return mmrOrder(candidates, lambda, tieBreak).map(({ candidate, value }) => ({
    ...candidate.entry,
    score: value,
    scores: { ...candidate.entry.scores, mmr: value },
  }));
}

/** Resolves after `ms`, or as soon as `signal` aborts; setTimeout, so any host has it. */
function pauseFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

function bodyOf(document: StoredDocument): string {
  return document.title === undefined ? document.text : `${document.title} ${document.text}`;
}

function toHit(entry: Ranked, includeText: boolean, vectorEncoding: "json" | "f32-base64" | undefined): EngineHit {
  const { document } = entry;
  const hit: EngineHit = {
    id: document.id,
    score: entry.score,
    meta: { ...document.meta },
    scores: entry.scores,
    citation: {
      source: document.origin === "corpus" ? "demo-corpus" : "index/add",
      ...(document.uri === undefined ? {} : { uri: document.uri }),
      ...(document.title === undefined ? {} : { title: document.title }),
    },
    trust: { level: document.origin === "corpus" ? "trusted" : "community" },
  };
  if (includeText) hit.text = document.text;
  if (vectorEncoding === "json") hit.vector = Array.from(document.vector);
  if (vectorEncoding === "f32-base64") hit.vector = encodeF32Base64(document.vector);
  return hit;
}
