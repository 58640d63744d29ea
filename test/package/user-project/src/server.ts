/** `server.js --stdio` serves NDJSON on stdio; without it, HTTP on a free port whose URL it prints. */
import { listen, serveStdio } from "@rcp-gen/runtime/node";
import { engine } from "./engine.js";

if (process.argv.includes("--stdio")) await serveStdio(engine);
else console.log((await listen(engine, { port: 0 })).url);
