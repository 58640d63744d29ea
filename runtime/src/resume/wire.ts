/**
 * The names by which resumable streams are negotiated (§6.2: `x-` names, ignored by peers that
 * do not know them) and the settings' defaults (docs/resumable-streams.md). Small on purpose:
 * the server core reads it to advertise the capability, the client to recognise it.
 */

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
