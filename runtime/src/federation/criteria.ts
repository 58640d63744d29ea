/**
 * Which engines a selection wants: by the registry's own fields (before connecting) and by
 * what a connected engine advertises (§6): capability paths, and option values checked with
 * the method's own gates and rules, exactly as the engine would check them (-32005, §7.7, §8).
 */
import type { MethodMap } from "../protocol/types.js";
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import { applyGates, checkRule } from "../server/params.js";
import { asRcpError } from "./errors.js";
import type { EngineClient } from "./engine-handle.js";
import type { EngineEntry } from "./registry.js";

/** What a Selector looks for in an engine: ids, transport, capabilities, what its calls must accept. */
export interface EngineCriteria<M extends MethodMap = MethodMap> {
  /** Only these registry ids. */
  ids?: readonly string[];
  transport?: "stdio" | "http";
  required?: boolean;
  /** Any other test on the registry entry. */
  where?: (entry: EngineEntry) => boolean;
  /** Capability paths the engine must advertise: `retrieve`, `retrieve.mmr`, `filter` (§6). */
  capabilities?: readonly string[];
  /**
   * Params the engine must accept for a method, as far as its capabilities decide: the method's
   * capability, its option gates and its rules (a filter's fields and operators), e.g.
   * `{ retrieve: { mode: "hybrid", modality: "image" } }`.
   */
  accepts?: { [K in keyof M & string]?: Partial<M[K]["params"]> };
}

export function matchesEntry(entry: EngineEntry, criteria: EngineCriteria<MethodMap>): boolean {
  if (criteria.ids !== undefined && !criteria.ids.includes(entry.id)) return false;
  if (criteria.transport !== undefined && entry.transport !== criteria.transport) return false;
  if (criteria.required !== undefined && entry.required !== criteria.required) return false;
  return criteria.where?.(entry) ?? true;
}

/** Why a connected engine does not meet `criteria`, or undefined when it does. */
export function unmetCriteria(
  protocol: ProtocolDescriptor,
  client: EngineClient,
  criteria: EngineCriteria<MethodMap>,
): string | undefined {
  for (const path of criteria.capabilities ?? []) if (!client.supports(path)) return `does not advertise ${path}`;
  for (const [method, params] of Object.entries(criteria.accepts ?? {})) {
    const descriptor = protocol.methods[method];
    if (descriptor === undefined) return `${method} is not a method of this protocol`;
    for (const gate of [descriptor.capability, descriptor.requires]) {
      if (gate && !client.supports(gate)) return `does not advertise ${gate}`;
    }
    const capabilities = client.serverCapabilities ?? {};
    const options = structuredClone(params ?? {}) as Record<string, unknown>;
    try {
      applyGates(descriptor, options, capabilities);
      for (const rule of descriptor.rules ?? []) checkRule(rule, options, capabilities);
    } catch (thrown) {
      return asRcpError(thrown).message;
    }
  }
  return undefined;
}
