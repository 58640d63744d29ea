/**
 * One conversation with the server under test, the same for every transport: a request and
 * its answer (with the notifications it brought), something that must go unanswered, a batch,
 * raw text. Every frame sent and received is entered in the run's ledger, which the checks
 * over the whole run (every frame well-formed, no notification nobody asked for) read.
 */
import type { SseReading } from "./wire/sse.js";

export type Transport = "stdio" | "http";
export type Frame = Record<string, unknown>;
export type RequestId = string | number;

export interface HttpView {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  /** Set when the body was an event stream. */
  readonly sse?: SseReading;
  /** False when the body was still open at the timeout. */
  readonly ended: boolean;
}

export interface Exchange {
  /** The response bearing the request's id, when one came in time. */
  readonly response?: Frame;
  /** Notifications that came for this request before its response. */
  readonly notifications: readonly Frame[];
  /** Everything else that came meanwhile: answers to other ids, frames after the response. */
  readonly strays: readonly unknown[];
  readonly http?: HttpView;
}

export interface Session {
  readonly transport: Transport;
  /** Sends a request and waits for its answer; `stream` asks HTTP for SSE (§5.2). */
  call(frame: Frame, options?: { stream?: boolean }): Promise<Exchange>;
  /** Sends what must not be answered (a notification, a batch of them); returns what answered it anyway. */
  unanswered(payload: unknown): Promise<{ answers: unknown[]; http?: HttpView }>;
  /** Sends a batch (§11); `reply` is what came back for it, undefined when nothing did. */
  batch(frames: readonly unknown[]): Promise<{ reply: unknown; http?: HttpView }>;
  /** Sends text that is not a well-formed message; returns what answered it. */
  raw(text: string): Promise<{ answers: unknown[]; http?: HttpView }>;
  close(): Promise<void>;
}

/** What a run sent and received, across its sessions. */
export class Ledger {
  /** Request id -> method, for every request sent. */
  readonly sent = new Map<RequestId, string>();
  /** Frames received over HTTP, in order. */
  readonly received: unknown[] = [];
  /** Lines received over stdio, one list per server process. */
  readonly stdoutLogs: Array<() => readonly unknown[]> = [];
  /** Progress tokens the run attached to requests. */
  readonly tokens = new Set<unknown>();
  /** Whether any request asked for logs (`_meta.logLevel`). */
  logsAsked = false;

  /** Everything received, whichever the transport. */
  allReceived(): unknown[] {
    return [...this.received, ...this.stdoutLogs.flatMap((log) => log())];
  }

  noteSent(payload: unknown): void {
    for (const frame of Array.isArray(payload) ? payload : [payload]) {
      if (typeof frame !== "object" || frame === null) continue;
      const { id, method, params } = frame as Frame;
      if ((typeof id === "string" || typeof id === "number") && typeof method === "string") this.sent.set(id, method);
      const meta = (params as { _meta?: Frame } | undefined)?._meta;
      if (meta?.progressToken !== undefined) this.tokens.add(meta.progressToken);
      if (meta?.logLevel !== undefined) this.logsAsked = true;
    }
  }
}

export function isFrame(value: unknown): value is Frame {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isResponse(value: unknown): value is Frame {
  return isFrame(value) && !("method" in value) && ("result" in value || "error" in value);
}
