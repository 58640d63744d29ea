/**
 * The names by which resumable streams are negotiated (§6.2: `x-` names, ignored by peers that
 * do not know them) and the settings' defaults (docs/resumable-streams.md). Small on purpose:
 * the server core reads it to advertise the capability, the client to recognise it.
 */
import type { EventStore, EventStoreLimits } from "./event-store.js";

/** The capability key a server advertises when it offers resumption: `{ retryMs, graceMs }`. */
export const RESUMABLE_CAPABILITY = "x-rcp-resumable";
/** The request header by which a client asks for a resumable stream (value `1`). */
export const RESUMABLE_HEADER = "X-RCP-Resumable";

export const RESUMABLE_DEFAULTS = {
  graceMs: 30_000,
  retryMs: 1000,
  ttlMs: 60_000,
  maxFrames: 1000,
  maxBytes: 256 * 1024,
  maxStreamsPerCaller: 100,
  maxStreams: 2000,
} as const;

/** The bounds a store keeps each stream within, from the settings given (a stream keeps at least one frame for at least 1 ms). */
export function storeLimits(given: { ttlMs?: number; maxFrames?: number; maxBytes?: number }): EventStoreLimits {
  return {
    ttlMs: Math.max(given.ttlMs ?? RESUMABLE_DEFAULTS.ttlMs, 1),
    maxFrames: Math.max(given.maxFrames ?? RESUMABLE_DEFAULTS.maxFrames, 1),
    maxBytes: given.maxBytes ?? RESUMABLE_DEFAULTS.maxBytes,
  };
}

/** What the capability says of a server's settings: how long to wait before a reconnect, and for how long one is possible. */
export interface ResumableCapability {
  readonly retryMs: number;
  readonly graceMs: number;
}

export function resumableCapability(
  settings: boolean | { retryMs?: number; graceMs?: number } | undefined,
): ResumableCapability | undefined {
  if (settings === undefined || settings === false) return undefined;
  const given = settings === true ? {} : settings;
  return {
    retryMs: given.retryMs ?? RESUMABLE_DEFAULTS.retryMs,
    graceMs: given.graceMs ?? RESUMABLE_DEFAULTS.graceMs,
  };
}

/** Settings of resumable streams (`http.resumable`); every bound is per process. */
export interface ResumableOptions {
  /**
   * Where frames are kept for readers on other replicas (`redisEventStore`); without it, only
   * this process's memory, so a reconnect must reach this process.
   */
  store?: EventStore;
  /** How long a handler runs on once its last reader has gone, waiting for a reconnect. Default 30000 ms. */
  graceMs?: number;
  /** The reconnect delay the stream suggests to clients (SSE `retry:`). Default 1000 ms. */
  retryMs?: number;
  /** How long a stream's frames are kept after its last one. Default 60000 ms. */
  ttlMs?: number;
  /** Frames kept per stream; past it the oldest progress frames are dropped. Default 1000. */
  maxFrames?: number;
  /** Characters of frame text kept per stream; past it the oldest progress frames are dropped. Default 262144. */
  maxBytes?: number;
  /** Streams one caller may hold (running or kept); past it its requests stream without resumption. Default 100. */
  maxStreamsPerCaller?: number;
  /** Streams the process holds; past it requests stream without resumption. Default 2000. */
  maxStreams?: number;
}
