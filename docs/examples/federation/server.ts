/**
 * A federating RCP server (§16) from the same generated code as any engine: `createServer`
 * with a `retrieve` that fans out to the engines of an `rcp.json` registry and fuses their
 * answers, and `catalog/list` (§7.13). It advertises `catalog` plus the union or intersection
 * of its engines' retrieve capabilities (§16.4), measured when it starts.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createServer, RcpClient, type FusionMethod, type ServerCapabilities } from "../../../generated/index.js";
import { fallbackNote, type ConformanceLevel, type RcpServer } from "@rcp-gen/runtime";
import { type Federation, Selector, type CapabilityRule } from "@rcp-gen/runtime/federation";
import { nodeHttpExchange, stdioConnector } from "@rcp-gen/runtime/node";

export const FEDERATOR_INFO = { name: "rcp-federator", version: "0.1.0" };

export interface FederatingServerOptions {
  /** The registry file; relative stdio commands in it run from its folder. */
  registryPath: string;
  /** This federator's name on `_meta.federation.path` (§16.2); default: a random one per process. */
  identity?: string;
  /** What to advertise over the engines (§16.4); default "union". */
  capabilities?: CapabilityRule;
  /** Cross-engine fusion (§16.3); default "rrf". */
  fusion?: FusionMethod;
  /** List engines' own endpoints in catalog/list (§7.13) and name them in engine failures; default false. */
  exposeEndpoints?: boolean;
  /** Diagnostics (an engine that did not connect); default stderr. */
  log?: (line: string) => void;
}

export interface FederatingServer {
  server: RcpServer;
  federation: Federation<RcpClient>;
  identity: string;
}

/** Connects the registry's engines and builds the server; fails when a required engine is down or none retrieves. */
export async function createFederatingServer(options: FederatingServerOptions): Promise<FederatingServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const registryPath = resolve(options.registryPath);
  const selector = new Selector(readFileSync(registryPath, "utf8"), {
    client: RcpClient,
    clientInfo: FEDERATOR_INFO,
    stdio: stdioConnector({ cwd: dirname(registryPath) }),
    // node:http with keep-alive agents: a fan-out makes many small calls, and fetch costs more per call.
    http: { exchange: nodeHttpExchange() },
  });
  const identity = options.identity ?? `${FEDERATOR_INFO.name}-${crypto.randomUUID().slice(0, 8)}`;
  const exposeEndpoints = options.exposeEndpoints ?? false;
  const federation = selector.federation(
    {},
    { identity, fusion: { method: options.fusion ?? "rrf" }, exposeEndpoints },
  );
  for (const { id, error } of await federation.connect()) {
    const required = federation.engines.find((handle) => handle.id === id)?.entry.required === true;
    if (required) {
      await federation.close();
      throw new Error(`required engine ${id} did not connect: ${error.message}`);
    }
    log(`federator: engine ${id} did not connect (${error.message}); it is tried again on each request`);
  }
  const merged = federation.capabilities(options.capabilities ?? "union");
  if (merged.retrieve === undefined) {
    await federation.close();
    throw new Error("no engine that advertises retrieve could be reached");
  }
  // Only the keys a federator can honour: the handlers below are the methods they gate.
  const capabilities = {
    retrieve: merged.retrieve,
    catalog: { engines: federation.engines.length },
    streaming: {},
    ...(merged.filter === undefined ? {} : { filter: merged.filter }),
    ...(merged.citations === undefined ? {} : { citations: merged.citations }),
  };
  const server = createServer({
    info: FEDERATOR_INFO,
    conformance: conformanceOf(capabilities),
    capabilities,
    handlers: {
      // Not async: the federated call's own promise is the answer, without an extra hop or two.
      retrieve: (params, ctx) => {
        // Fused progress only when the caller asked for it (§9): it costs a fusion per engine answer.
        const asked = ctx.meta.progressToken !== undefined;
        const answer = federation.retrieve(params, {
          signal: ctx.signal,
          ...(asked ? { onProgress: (event) => ctx.progress(event) } : {}),
        });
        if (ctx.degraded.length === 0) return answer;
        // §7.7: what strict: false made this server drop is noted beside what the engines noted.
        return answer.then((result) => {
          const notes = [...ctx.degraded.map(fallbackNote), ...(result.usage?.notes ?? [])];
          return { ...result, usage: { ...result.usage, notes } };
        });
      },
      "catalog/list": () => federation.catalog({ endpoints: exposeEndpoints }),
    },
  });
  return { server, federation, identity };
}

/**
 * L1 (§14.2) when the federation offers every mode, filters and citations. L2 (§14.3) when it
 * is L1 and advertises at least two of the §14.3 selection, as `rcp-gen conform` counts them:
 * of those a federator passes on, streaming (always: it reports its own progress), a built-in
 * rerank and reproducibility (retrieve.deterministic, held only when every engine holds it).
 * L0 otherwise.
 */
function conformanceOf(capabilities: ServerCapabilities): ConformanceLevel {
  const retrieve = capabilities.retrieve;
  const modes = retrieve?.modes ?? [];
  const everyMode = (["dense", "sparse", "hybrid"] as const).every((mode) => modes.includes(mode));
  if (!everyMode || capabilities.filter === undefined || capabilities.citations === undefined) return "L0";
  const selection = [
    capabilities.streaming !== undefined,
    retrieve?.rerankBuiltin === true,
    retrieve?.deterministic === true || retrieve?.snapshots === true,
  ];
  return selection.filter(Boolean).length >= 2 ? "L2" : "L1";
}
