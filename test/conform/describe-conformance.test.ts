/**
 * describeConformance (rcp-gen/vitest) as an engine's own test suite would use it: the demo
 * engine started over stdio, made slow enough by --slow-meta's option that cancel and
 * deadline checks apply, every check of the run a test of this file (none skipped); and the
 * threshold engine, which finds nothing off its subject, given a query on it.
 */
import { describeConformance } from "rcp-gen/vitest";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { DEMO, THRESHOLD } from "./conform-cli.js";

describeConformance({ command: [...DEMO, "--stdio"] }, { slowMeta: { [STAGE_DELAY_META_KEY]: 150 } });

// The query given to the API is sent as it is: the threshold engine then finds hits, and holds L1.
describeConformance({ command: THRESHOLD }, { query: "compost tomatoes" });
