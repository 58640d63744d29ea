/** The user's engine, typed by what rcp-gen generated from schema/ (RCP/1 plus x-acme/echo). */
import { createServer, type Hit } from "./generated/index.js";

const corpus = ["alpha beta", "beta gamma", "gamma delta"];

export const engine = createServer({
  info: { name: "acme-engine", version: "1.0.0" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 5, modes: ["sparse"] }, streaming: {}, "x-acme": { loud: false } },
  limits: { maxMessageBytes: 1 << 20, maxInFlight: 64 },
  http: { maxConcurrentRequests: 32, keepAliveMs: 5_000 },
  diagnostics: (line) => process.stderr.write(`[acme] ${line}\n`),
  handlers: {
    async *retrieve(params) {
      const words = typeof params.query === "string" ? params.query.split(" ") : [];
      const hits: Hit[] = corpus
        .map((text, index) => ({ id: `d${index}`, text, score: words.filter((word) => text.includes(word)).length }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score);
      yield { progress: 0.5, stage: "recall", partial: { hits } };
      return { hits: hits.slice(0, params.k) };
    },
    async *"x-acme/echo"(params) {
      const words = params.text.split(" ");
      for (const [index, word] of words.entries()) yield { progress: (index + 1) / words.length, partial: { word } };
      return { echo: params.text };
    },
  },
});
