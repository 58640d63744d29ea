/** Serves the engine as NDJSON on stdio. */
import { serveStdio } from "@rcp-gen/runtime/node";
import { engine } from "./engine.js";

await serveStdio(engine);
