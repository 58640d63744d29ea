/**
 * describeConformance (rcp-gen/vitest) as an engine's own test suite would use it: the demo
 * engine started over stdio, made slow enough by --slow-meta's option that cancel and
 * deadline checks apply, every check of the run a test of this file (none skipped).
 */
import { describeConformance } from "rcp-gen/vitest";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { DEMO } from "./conform-cli.js";

describeConformance({ command: [...DEMO, "--stdio"] }, { slowMeta: { [STAGE_DELAY_META_KEY]: 150 } });
