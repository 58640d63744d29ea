/**
 * Runs the Orama engine:
 *   node dist/docs/examples/orama-engine/serve.js --stdio        NDJSON on stdin/stdout (§5.1)
 *   node dist/docs/examples/orama-engine/serve.js --port 8000    HTTP + SSE on 127.0.0.1, base /rcp (§5.2)
 * With --port 0 the OS picks a free port; the first stdout line is then the base URL.
 * --corpus <file.json> starts from that file's documents (an array of { id, title, text, meta },
 * as the demo engine's corpus.json) instead of the ten gardening notes.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { listen, serveStdio } from "@rcp-gen/runtime/node";
import { startingDocuments, type GardenDocument } from "./orama/documents.js";
import { OramaStore } from "./orama/store.js";
import { createOramaServer } from "./server.js";

const { values } = parseArgs({
  options: { stdio: { type: "boolean", default: false }, port: { type: "string" }, corpus: { type: "string" } },
});
const documents =
  values.corpus === undefined
    ? startingDocuments
    : (JSON.parse(readFileSync(values.corpus, "utf8")) as GardenDocument[]);
const server = await createOramaServer(await OramaStore.open(documents));
if (values.stdio) {
  await serveStdio(server);
} else {
  const listening = await listen(server, { port: Number(values.port ?? "8000") });
  process.stdout.write(`${listening.url}\n`);
  const stop = (): void => void listening.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
