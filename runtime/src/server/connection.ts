/**
 * One client connection (a stdio pipe, an in-memory pair, one HTTP exchange): its session,
 * the requests it has in flight (for cancellation, §7.14), and whether `shutdown` has been
 * answered, after which no new request is processed (§13.1).
 */
import type { RequestId } from "../protocol/types.js";
import type { Session } from "./session.js";
import { ErrorCode, RcpError } from "../protocol/errors.js";

/** What a connection can do to a request it has in flight (./context.ts implements it). */
export interface InFlightRequest {
  /** Answers now with `error` (cancel, deadline) and aborts the handler. */
  abort(error: RcpError): void;
  /** Aborts the handler and answers nothing: the transport is gone. */
  abandon(): void;
}

export const CANCELLED = new RcpError(ErrorCode.Cancelled, "Cancelled");

export class Connection {
  readonly inFlight = new Map<RequestId, InFlightRequest>();
  /** Set once `shutdown` was answered or the input ended. */
  closing = false;
  /**
   * Where a cancel for an id not in flight here goes: a stateful HTTP session's request may
   * run in another process (./state/types.ts CancelRelay). Unset: such a cancel is a no-op.
   */
  cancelElsewhere: ((id: RequestId) => void) | undefined;

  constructor(readonly session: Session) {}

  /** `notifications/cancel`: unknown or already answered ids are a no-op (§7.14). */
  cancel(id: unknown): void {
    if (typeof id !== "string" && typeof id !== "number") return;
    const request = this.inFlight.get(id);
    if (request !== undefined) request.abort(CANCELLED);
    else this.cancelElsewhere?.(id);
  }

  /** The transport died: abort every handler, answer nothing (§13.1). */
  abandonAll(): void {
    this.closing = true;
    for (const request of [...this.inFlight.values()]) request.abandon();
  }
}
