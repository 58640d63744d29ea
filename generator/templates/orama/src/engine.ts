/**
 * The engine: an Orama store (src/orama/: hybrid full-text and vector search, the §8 filter as
 * Orama's `where`, writes, progress, cancellation) behind the server rcp-gen generates from
 * schema/ into src/generated. Advertising a capability without its handler, or answering with
 * the wrong shape, does not compile. server.ts serves the engine over stdio or HTTP; the tests
 * call it in-process and run the conformance suite at the level it declares. The store's
 * vectors come from a small deterministic function (src/orama/embedding.ts), not a model:
 * put your embedding model there.
 */
import { ErrorCode, RcpError } from "@rcp-gen/runtime";
import { createServer } from "./generated/index.js";
import { oramaCapabilities } from "./orama/capabilities.js";
import { startingDocuments } from "./orama/documents.js";
import { retrieveFrom } from "./orama/retrieve.js";
import { OramaStore } from "./orama/store.js";

const store = await OramaStore.open(startingDocuments);

export const server = createServer({
  info: { name: "my-rcp-engine", version: "0.1.0" },
  conformance: "L2",
  capabilities: { ...oramaCapabilities, "x-example": {} },
  handlers: {
    retrieve: (params, ctx) => retrieveFrom(store, params, ctx),
    "index/add": async (params) => ({ ids: await store.add(params.documents) }),
    "index/delete": async (params) => ({ deleted: await store.delete(params.ids) }),
    // Its schema documents NotFound (x-rcp.errors): `rcp-gen conform` counts that answer as correct.
    "x-example/lookup"(params) {
      const document = store.get(params.id);
      if (!document) throw new RcpError(ErrorCode.NotFound, `Not found: no document ${params.id}`);
      return { id: document.id, text: document.text };
    },
  },
});
