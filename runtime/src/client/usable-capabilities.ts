/**
 * An initialize (or info) result whose capabilities break the schema (§6): each malformed
 * capability is set aside, so it reads as not advertised and calls it gates fail locally with
 * -32003, while the rest of the session stands. Anything malformed outside `capabilities`
 * (the version, the server's identity) still fails the handshake.
 */
import type { ShapeCheck } from "../protocol/descriptor.js";
import { isRecord } from "../protocol/dotted-paths.js";
import { firstProblem } from "./tolerance.js";

export interface SetAside {
  capability: string;
  problem: string;
}

export type Screened =
  { ok: true; result: Record<string, unknown>; setAside: readonly SetAside[] } | { ok: false; problem: string };

export function screenCapabilities(validate: ShapeCheck, result: unknown): Screened {
  if (validate(result)) return { ok: true, result: result as Record<string, unknown>, setAside: [] };
  if (!isRecord(result) || !isRecord(result.capabilities)) return { ok: false, problem: firstProblem(validate) };
  const capabilities = { ...result.capabilities };
  const candidate = { ...result, capabilities };
  const setAside: SetAside[] = [];
  // One key per round: ajv reports the first issue only, and there are a handful of keys.
  for (;;) {
    const key = capabilityOf(validate.errors?.[0]?.instancePath);
    if (key === undefined || !(key in capabilities)) return { ok: false, problem: firstProblem(validate) };
    setAside.push({ capability: key, problem: firstProblem(validate) });
    delete capabilities[key];
    if (validate(candidate)) return { ok: true, result: candidate, setAside };
  }
}

/** `/capabilities/embed/dimension` -> `embed`; undefined outside one capability's value. */
function capabilityOf(pointer: string | undefined): string | undefined {
  const match = pointer === undefined ? null : /^\/capabilities\/([^/]+)/.exec(pointer);
  return match === null ? undefined : match[1]!.replace(/~1/g, "/").replace(/~0/g, "~");
}
