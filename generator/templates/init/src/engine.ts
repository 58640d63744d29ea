/**
 * The engine: what it advertises and how it answers. The handlers are typed by the code
 * rcp-gen generates from schema/ into src/generated: advertising a capability without its
 * handler, or answering with the wrong shape, does not compile. server.ts serves the engine
 * over stdio or HTTP; the test calls it in-process.
 */
import { ErrorCode, fallbackNote, RcpError } from "@rcp-gen/runtime";
import { createServer, type Hit } from "./generated/index.js";

const documents = [
  { id: "doc-1", text: "Compost feeds tomato seedlings in a raised bed." },
  { id: "doc-2", text: "A raised bed warms up early in spring." },
  { id: "doc-3", text: "Tomato plants want sun, water and a stake." },
  { id: "doc-4", text: "Mulch keeps the soil of a bed moist in summer." },
  { id: "doc-5", text: "Seedlings grown indoors need hardening off." },
];

const words = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

export const server = createServer({
  info: { name: "my-rcp-engine", version: "0.1.0" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 10, modes: ["sparse"] }, streaming: {}, "x-example": {} },
  handlers: {
    // Each `yield` is a notifications/progress frame, sent when the request asked for progress.
    async *retrieve(params, ctx) {
      const query = new Set(words(typeof params.query === "string" ? params.query : ""));
      const matches: Hit[] = documents
        .map((document) => ({ ...document, score: words(document.text).filter((word) => query.has(word)).length }))
        .filter((hit) => hit.score > 0);
      yield {
        progress: 0.5,
        stage: "recall",
        message: `${matches.length} of ${documents.length} match`,
        partial: { hits: matches },
      };
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const hits = matches.sort((a, b) => b.score - a.score).slice(0, params.k);
      yield { progress: 0.9, stage: "rank", message: `kept the best ${hits.length}`, partial: { hits } };
      // With `strict: false`, options this engine does not advertise are dropped, not refused:
      // the result says which (§7.7).
      return ctx.degraded.length === 0 ? { hits } : { hits, usage: { notes: ctx.degraded.map(fallbackNote) } };
    },
    // Its schema documents NotFound (x-rcp.errors): `rcp-gen conform` counts that answer as correct.
    "x-example/lookup"(params) {
      const document = documents.find((candidate) => candidate.id === params.id);
      if (!document) throw new RcpError(ErrorCode.NotFound, `Not found: no document ${params.id}`);
      return document;
    },
  },
});
