/** Ours over stdio (NDJSON, §5.1). */
import { serveStdio } from "@rcp-gen/runtime/node";
import { createOursServer } from "./ours-server.js";

await serveStdio(createOursServer());
