/**
 * describeConformance (rcp-gen/vitest) as an engine's own test suite would use it: the demo
 * engine served over HTTP from this process, every check of the run a test of this file.
 */
import { afterAll } from "vitest";
import { listen } from "@rcp-gen/runtime/node";
import { describeConformance } from "rcp-gen/vitest";
import { createDemoServer } from "../../examples/demo-engine/server.js";

const server = createDemoServer();
const listening = await listen(server, { port: 0 });
afterAll(() => server.close());

describeConformance({ http: listening.url });
