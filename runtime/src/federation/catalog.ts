/**
 * `catalog/list` (§7.13): each connected engine's identity and capabilities as its own
 * `initialize` answered them. Endpoints are left out unless the operator exposes them: an
 * aggregator is often the one public door to engines on a private network (§15.5).
 */
import type { EngineClient } from "./engine-handle.js";
import type { EngineEntry } from "./registry.js";

export interface CatalogEntry {
  id: string;
  server: { name: string; version: string };
  capabilities: Record<string, unknown>;
  endpoint?: { transport: "stdio"; command: string[] } | { transport: "http"; url: string };
}

export function catalogOf(
  engines: readonly { entry: EngineEntry; client: EngineClient }[],
  exposeEndpoints: boolean,
): CatalogEntry[] {
  return engines.map(({ entry, client }) => ({
    id: entry.id,
    server: { ...client.serverInfo! },
    capabilities: { ...client.serverCapabilities },
    ...(exposeEndpoints ? { endpoint: endpointOf(entry) } : {}),
  }));
}

function endpointOf(entry: EngineEntry): NonNullable<CatalogEntry["endpoint"]> {
  return entry.transport === "http"
    ? { transport: "http", url: entry.url! }
    : { transport: "stdio", command: [...entry.command!] };
}
