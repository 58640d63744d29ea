/** The Orama example engine as a user runs it: its compiled serve.js, in a child process. */
import { entryPath } from "../fixtures/entry.js";

export const ORAMA_SERVE = entryPath("docs/examples/orama-engine/serve.ts");
