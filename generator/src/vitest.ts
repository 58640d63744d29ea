/**
 * `rcp-gen/vitest`: RCP in an engine's own vitest run. `expect.extend(rcpMatchers(protocol))`
 * registers the frame matchers for the protocol given (their types come with this entry);
 * `describeConformance` runs the conformance suite as tests.
 * vitest is an optional peer of this dev-time package only: an optional peer of the runtime,
 * which servers install in production, made npm install vitest (46 packages, 42 MB) into
 * every `--omit=dev` install of a project that tests with it.
 */
export type { RcpMatchers } from "./vitest/matchers.js";
export { describeConformance } from "./vitest/describe-conformance.js";
export { rcpMatchers, type ErrorMatcherOptions } from "@rcp-gen/runtime/testing";
