/** Mistakes the generated .d.ts files catch in plain JavaScript under checkJs: each line marked `mistake` is an error. */
import { connectStdio, createServer } from "../src/generated/index.js";

const client = await connectStdio({ clientInfo: { name: "c", version: "1" }, transport: { command: "node" } });
await client.retreive({ query: "misspelt method" }); // mistake: TS2551
await client.retrieve({ query: "k must be a number", k: "2" }); // mistake: TS2322

createServer({
  info: { name: "e", version: "1" },
  conformance: "L0",
  capabilities: { retrieve: { maxK: 5, modes: ["sparse"] } },
  handlers: {
    retrieve: async () => ({ hits: [{ id: "d1", score: "high" }] }), // mistake: TS2322
  },
});
