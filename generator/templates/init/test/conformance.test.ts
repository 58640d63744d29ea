/**
 * The engine passes the RCP/1 conformance suite at the level it declares (`conformance` in
 * src/engine.ts), checked against this project's schema (rcp-gen.config.json), the vendor
 * method included: each check is a test. The same suite as
 * `npx rcp-gen conform -- node dist/server.js --stdio`; `npm test` builds dist/ first.
 */
import { fileURLToPath } from "node:url";
import { describeConformance } from "rcp-gen/vitest";

const serverScript = fileURLToPath(new URL("../dist/server.js", import.meta.url));

describeConformance({ command: [process.execPath, serverScript, "--stdio"] });
