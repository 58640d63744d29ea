/**
 * Liberal in what the client accepts, with a record of it. Servers that exist break the
 * schema in small ways (a capability missing a field, a `partial` of the wrong shape, a
 * result with a renamed member); the client keeps working where it safely can and reports
 * each deviation once per kind, method and capability, counting repeats. Under `strict`
 * every deviation is an error instead.
 */
import type { ValidationIssue, ShapeCheck } from "../protocol/descriptor.js";
import { pointerToDotted } from "../protocol/dotted-paths.js";

/** One way a server's answer broke the schema and what the client did instead, passed to `onDiagnostic`. */
export interface ClientDiagnostic {
  /**
   * What deviated: a `capability` in the initialize result (now unusable), a `progress` frame
   * (its partial dropped, or the frame dropped), a `log` frame (dropped), a `result` (delivered
   * as received), or the `session` handshake (initialize refused over HTTP, info used instead).
   */
  readonly kind: "capability" | "progress" | "log" | "result" | "session";
  /** The method or notification concerned. */
  readonly method: string;
  /** The capability key, for kind `capability`. */
  readonly capability?: string;
  /** Where the value broke the schema and how, e.g. `capabilities.embed: must have required property 'identity'`. */
  readonly problem: string;
  /** One line saying what was received and what the client did about it. */
  readonly message: string;
}

/** One recorded deviation: the first diagnostic of its kind, method and capability, and how often it recurred. */
export interface ToleratedDeviation extends ClientDiagnostic {
  count: number;
}

export class Tolerance {
  readonly strict: boolean;
  readonly #onDiagnostic: (diagnostic: ClientDiagnostic) => void;
  readonly #record = new Map<string, ToleratedDeviation>();

  constructor(strict: boolean, onDiagnostic: ((diagnostic: ClientDiagnostic) => void) | undefined) {
    this.strict = strict;
    this.#onDiagnostic = onDiagnostic ?? ((diagnostic) => console.warn(`rcp client: ${diagnostic.message}`));
  }

  /** Every distinct deviation so far, in the order first seen. */
  get record(): readonly ToleratedDeviation[] {
    return [...this.#record.values()];
  }

  /** Records a deviation; the callback hears the first of each kind, method and capability. */
  report(diagnostic: ClientDiagnostic): void {
    const key = `${diagnostic.kind}\u0000${diagnostic.method}\u0000${diagnostic.capability ?? ""}`;
    const seen = this.#record.get(key);
    if (seen !== undefined) {
      seen.count++;
      return;
    }
    this.#record.set(key, { ...diagnostic, count: 1 });
    this.#onDiagnostic(diagnostic);
  }
}

/** The validator's first issue as `dotted.path: message`, relative to `root`. */
export function firstProblem(validator: ShapeCheck, root = ""): string {
  const issue: ValidationIssue | undefined = validator.errors?.[0];
  if (issue === undefined) return `${root || "value"}: does not match the schema`;
  let path = pointerToDotted(issue.instancePath);
  if (root) path = path ? `${root}.${path}` : root;
  return `${path || "value"}: ${issue.message ?? issue.keyword}`;
}
