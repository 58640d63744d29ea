/**
 * `catalog/list` (§7.13): each connected engine's identity and capabilities as its own
 * `initialize` answered them, strict in what it sends: a capability an engine advertised
 * malformed (a reference server's `embed` without `identity`) is left out of its entry, and an
 * entry that still fails the schema is left out. Endpoints are left out unless the operator
 * exposes them: an aggregator is often the one public door to engines on a private network.
 */
import type { ShapeCheck } from "../protocol/descriptor.js";
import type { EngineClient } from "./engine-handle.js";
import type { EngineEntry } from "./registry.js";

/** One engine in a `catalog/list` result (§7.13). */
export interface CatalogEntry {
  id: string;
  server: { name: string; version: string };
  capabilities: Record<string, unknown>;
  endpoint?: { transport: "stdio"; command: string[] } | { transport: "http"; url: string };
}

/** `validate` is the catalog/list result validator, when the protocol has that method. */
export function catalogOf(
  engines: readonly { entry: EngineEntry; client: EngineClient }[],
  exposeEndpoints: boolean,
  validate: ShapeCheck | undefined,
): CatalogEntry[] {
  return engines.flatMap(({ entry, client }) => {
    const listed: CatalogEntry = {
      id: entry.id,
      server: { ...client.serverInfo! },
      capabilities: { ...client.serverCapabilities },
      ...(exposeEndpoints ? { endpoint: endpointOf(entry) } : {}),
    };
    return validate === undefined ? [listed] : wellFormed(listed, validate);
  });
}

/** The entry without the capabilities the schema refuses, one at a time; nothing when more is wrong. */
function wellFormed(listed: CatalogEntry, validate: ShapeCheck): CatalogEntry[] {
  const capabilities = { ...listed.capabilities };
  for (;;) {
    const candidate = { ...listed, capabilities };
    if (validate({ engines: [candidate] })) return [candidate];
    const key = /^\/engines\/0\/capabilities\/([^/]+)/.exec(validate.errors?.[0]?.instancePath ?? "")?.[1];
    const name = key?.replaceAll("~1", "/").replaceAll("~0", "~");
    if (name === undefined || !(name in capabilities)) return [];
    delete capabilities[name];
  }
}

function endpointOf(entry: EngineEntry): NonNullable<CatalogEntry["endpoint"]> {
  return entry.transport === "http"
    ? { transport: "http", url: entry.url! }
    : { transport: "stdio", command: [...entry.command!] };
}
