/**
 * The static engine registry, `rcp.json` (§16.1): validated with the protocol's own registry
 * validator (the shared type with `x-rcp` role `registry`), then checked for what a schema
 * cannot say (unique ids, usable URLs). Every error names the entry and the field.
 */
import type { ProtocolDescriptor } from "../protocol/descriptor.js";
import { issuePath } from "../protocol/validation-issue.js";
import { isRecord } from "../protocol/dotted-paths.js";

/** A registry entry with §16.1's defaults applied: weight 1, not required, priority 0. */
export interface EngineEntry {
  readonly id: string;
  readonly transport: "stdio" | "http";
  /** argv, for stdio. */
  readonly command?: readonly string[];
  /** The RCP base URL, for http. */
  readonly url?: string;
  readonly weight: number;
  readonly required: boolean;
  readonly priority: number;
}

/** A registry that cannot be used; `field` is the dotted path (`engines.1.url`), `engine` the entry's id. */
export class RegistryError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly engine?: string,
  ) {
    super(`rcp.json: ${field || "(root)"}${engine === undefined ? "" : ` (engine "${engine}")`}: ${problem}`);
    this.name = "RegistryError";
  }
}

/**
 * Reads a registry (its JSON text or the parsed value) into entries in the registry's order.
 * Throws RegistryError for the first problem.
 */
export function parseRegistry(protocol: ProtocolDescriptor, registry: unknown): EngineEntry[] {
  const document = typeof registry === "string" ? parseJson(registry) : registry;
  const validate = protocol.registry;
  if (validate === undefined) {
    throw new TypeError("This protocol's schema has no shared type with x-rcp role registry to validate rcp.json with");
  }
  if (!validate(document)) {
    const issue = validate.errors?.[0];
    // issuePath calls the root "params"; here the root is the registry itself, named "(root)" in messages.
    const field = issue === undefined ? "" : issuePath(issue).replace(/^params$/, "");
    throw new RegistryError(field, issue?.message ?? "does not match the registry schema", engineIdAt(document, field));
  }
  // Shaped as the schema says (generated `RegistryEngine`): the validator has just checked it.
  const engines = (
    document as { engines: Array<Omit<EngineEntry, "weight" | "required" | "priority"> & Partial<EngineEntry>> }
  ).engines;
  const firstIndex = new Map<string, number>();
  return engines.map((engine, index) => {
    const previous = firstIndex.get(engine.id);
    if (previous !== undefined) {
      throw new RegistryError(`engines.${index}.id`, `duplicate id, also engines.${previous}.id`, engine.id);
    }
    firstIndex.set(engine.id, index);
    if (engine.transport === "http") checkUrl(engine.url!, index, engine.id);
    return {
      id: engine.id,
      transport: engine.transport,
      ...(engine.transport === "stdio" ? { command: [...engine.command!] } : { url: engine.url! }),
      weight: engine.weight ?? 1,
      required: engine.required ?? false,
      priority: engine.priority ?? 0,
    };
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RegistryError("", `not JSON: ${(error as Error).message}`);
  }
}

function checkUrl(url: string, index: number, id: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new RegistryError(`engines.${index}.url`, "not an absolute URL", id);
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw new RegistryError(`engines.${index}.url`, `an http engine needs an http: or https: URL, not ${protocol}`, id);
  }
}

/** The id of the entry a dotted path points into, when it has a usable one. */
function engineIdAt(document: unknown, field: string): string | undefined {
  const index = /^engines\.(\d+)(\.|$)/.exec(field)?.[1];
  if (index === undefined || !isRecord(document) || !Array.isArray(document.engines)) return undefined;
  const entry: unknown = document.engines[Number(index)];
  return isRecord(entry) && typeof entry.id === "string" && entry.id !== "" ? entry.id : undefined;
}
