/** The engine, in plain JavaScript: typed by the .d.ts files rcp-gen wrote beside the generated .js. */
import { createServer } from "./generated/index.js";

const corpus = ["alpha beta", "beta gamma", "gamma delta"];

export const engine = createServer({
  info: { name: "plain-js-engine", version: "1.0.0" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 5, modes: ["sparse"] }, streaming: {} },
  handlers: {
    async *retrieve(params) {
      const words = typeof params.query === "string" ? params.query.split(" ") : [];
      /** @type {import("./generated/index.js").Hit[]} */
      const hits = corpus
        .map((text, index) => ({ id: `d${index}`, text, score: words.filter((word) => text.includes(word)).length }))
        .filter((hit) => hit.score > 0)
        .sort((a, b) => b.score - a.score);
      yield { progress: 0.5, stage: "recall", partial: { hits } };
      return { hits: hits.slice(0, params.k) };
    },
  },
});
