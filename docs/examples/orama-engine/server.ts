/**
 * The Orama engine as an RCP/1 server: the generated server over the store in orama/. Each
 * handler is one call on the store; the generated code and the runtime do the protocol.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { invalidParams } from "@rcp-gen/runtime";
import { createServer } from "../../../generated/server.js";
import { oramaCapabilities } from "./orama/capabilities.js";
import { startingDocuments } from "./orama/documents.js";
import { retrieveFrom } from "./orama/retrieve.js";
import { OramaStore } from "./orama/store.js";

/** `_meta` key asking the engine to sleep this many milliseconds before each search (tests cancel in the gap). */
export const SEARCH_DELAY_META_KEY = "x-orama-delayMs";

export async function createOramaServer(store?: OramaStore): Promise<ReturnType<typeof createServer>> {
  store ??= await OramaStore.open(startingDocuments);
  return createServer({
    info: { name: "rcp-orama-engine", version: "0.1.0" },
    conformance: "L2",
    capabilities: oramaCapabilities,
    handlers: {
      retrieve: (params, ctx) => retrieveFrom(store, params, ctx, searchDelay(ctx.meta[SEARCH_DELAY_META_KEY])),
      "index/add": async (params) => ({ ids: await store.add(params.documents) }),
      "index/delete": async (params) => ({ deleted: await store.delete(params.ids) }),
    },
  });
}

function searchDelay(delay: unknown): (() => Promise<void>) | undefined {
  if (delay === undefined) return undefined;
  if (typeof delay !== "number" || !(delay >= 0 && delay <= 60_000))
    throw invalidParams(`_meta.${SEARCH_DELAY_META_KEY}`, "must be a number of milliseconds in [0, 60000]");
  return () => sleep(delay);
}
