/**
 * An engine for the federation scenario: `delayed-engine.js --delay-ms N --engine NAME [--stdio]`,
 * the generated server answering every retrieve after N ms with 10 hits, 3 of them shared by
 * every engine (so fusion merges) and 7 its own. Over HTTP it announces its base URL like the
 * other HTTP servers; with --stdio it serves NDJSON, as a federator's registry starts it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { listen, serveStdio } from "@rcp-gen/runtime/node";
import { createServer } from "../../../generated/server.js";
import type { Hit } from "../../../generated/types.js";
import { announceUrl } from "./announce.js";

const { values } = parseArgs({
  options: {
    "delay-ms": { type: "string", default: "0" },
    engine: { type: "string", default: "engine" },
    stdio: { type: "boolean", default: false },
  },
});
const delayMs = Number(values["delay-ms"]);
const engine = values.engine;

function hits(): Hit[] {
  return Array.from({ length: 10 }, (_, index) => ({
    id: index % 3 === 0 ? `shared-${index}` : `${engine}-${index}`,
    score: 1 - index / 20,
    text: `passage ${index} of ${engine}`,
    meta: { lang: "en" },
  }));
}

const server = createServer({
  info: { name: `bench-${engine}`, version: "1.0.0" },
  capabilities: { retrieve: { maxK: 50, modes: ["hybrid"] } },
  conformance: "L0",
  handlers: {
    async retrieve() {
      await sleep(delayMs);
      return { hits: hits() };
    },
  },
});

if (values.stdio) await serveStdio(server);
else announceUrl((await listen(server, { port: 0, host: "127.0.0.1" })).url);
