/** Ours over stdio (NDJSON, §5.1). */
import { createOursServer } from "./ours-server.js";

await createOursServer().serveStdio();
