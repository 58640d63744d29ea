/** The Orama example engine as a user runs it: its compiled serve.js, in a child process. */
import { fileURLToPath } from "node:url";

export const ORAMA_SERVE = fileURLToPath(new URL("../../dist/docs/examples/orama-engine/serve.js", import.meta.url));
