/**
 * `rcp-gen/vitest`: RCP in an engine's own vitest run. Importing it registers the frame
 * matchers with vitest's `expect`; `describeConformance` runs the conformance suite as tests.
 * vitest is an optional peer of this dev-time package only: an optional peer of the runtime,
 * which servers install in production, made npm install vitest (46 packages, 42 MB) into
 * every `--omit=dev` install of a project that tests with it.
 */
import "./vitest/matchers.js";

export type { RcpMatchers } from "./vitest/matchers.js";
export { describeConformance } from "./vitest/describe-conformance.js";
export { rcpMatchers, useRcpProtocol, type ErrorMatcherOptions } from "@rcp-gen/runtime/testing";
