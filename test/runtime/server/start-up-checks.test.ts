/**
 * What a server says about its own mistakes: an advertised capability whose handler is
 * missing (hidden by a cast) is refused by createServer, naming the method; a progress
 * partial that misses its schema is dropped with a line naming the path and the problem, as
 * a malformed result's line does.
 */
import { expect, it } from "vitest";
import { connectMemory, createServer } from "../../../generated/index.js";

it("createServer refuses an advertised capability without its handler, naming the method, even through a cast", () => {
  const build = () =>
    createServer({
      info: { name: "half-built", version: "1.0.0" },
      conformance: "L0",
      capabilities: { retrieve: { maxK: 5, modes: ["sparse"] }, rerank: { methods: ["cross-encoder"] } },
      handlers: { retrieve: () => ({ hits: [] }) } as never,
    });
  expect(build).toThrow(
    new TypeError(
      'createServer: no handler for rerank (advertised by rerank): give handlers["rerank"], or stop advertising its capability',
    ),
  );
});

it("names the path and the problem of a malformed partial it drops", async () => {
  const lines: string[] = [];
  const server = createServer({
    info: { name: "bad-partials", version: "1.0.0" },
    conformance: "L0",
    capabilities: { retrieve: { maxK: 5, modes: ["sparse"] }, streaming: {} },
    diagnostics: (line) => lines.push(line),
    handlers: {
      // eslint-disable-next-line @typescript-eslint/require-await -- a streaming handler, as users write them: an async generator
      async *retrieve() {
        yield { progress: 0.5, partial: { hits: "not a list" } } as never;
        return { hits: [] };
      },
    },
  });
  const client = await connectMemory(server);
  try {
    const events = [];
    for await (const event of client.retrieveStream({ query: "q", k: 3 })) events.push(event.type);
    expect(events).toEqual(["progress", "result"]);
  } finally {
    await client.close();
  }
  expect(lines).toEqual([
    "rcp: retrieve progress carried a malformed partial (partial.hits: must be array); it was dropped",
  ]);
});
