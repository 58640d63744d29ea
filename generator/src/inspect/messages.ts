/** What the inspector's server and its page say to each other (JSON over HTTP; frames over SSE). */
import type { ConformReport } from "../conform/report.js";
import type { Reconnect, RecordedFrame } from "./engine.js";
import type { MethodView } from "./schema-view.js";

export type { ConformReport, MethodView, Reconnect, RecordedFrame };

/** GET /api/session: the connection as initialize left it. */
export interface SessionView {
  readonly transport: "stdio" | "http";
  /** The engine command line or its URL. */
  readonly target: string;
  readonly server?: { readonly name: string; readonly version: string };
  readonly protocolVersion?: number;
  /** The level the engine declared in `_meta.conformance` (§14). */
  readonly conformance?: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** How many frames the connection had carried when this view was made: the page is ready once it shows them. */
  readonly frames: number;
  /** Every method the schema defines, each with whether the engine's capabilities allow it. */
  readonly methods: readonly (MethodView & { readonly advertised: boolean })[];
}

/** POST /api/validate: validateFrame's verdict on the raw request being typed. */
export interface FrameVerdict {
  readonly ok: boolean;
  readonly kind?: string;
  readonly problems: readonly { readonly path: string; readonly message: string }[];
}

export interface WireError {
  readonly code?: number;
  readonly message: string;
  readonly data?: unknown;
}

/** POST /api/call answers with one of these per line (NDJSON), `started` first, then progress, then one end. */
export type CallEvent =
  | { readonly type: "started"; readonly callId: string }
  | {
      readonly type: "progress";
      readonly at: number;
      readonly progress?: number;
      readonly total?: number;
      readonly stage?: string;
      readonly message?: string;
      readonly partial?: unknown;
    }
  | { readonly type: "result"; readonly at: number; readonly result: unknown }
  | { readonly type: "error"; readonly at: number; readonly error: WireError };
