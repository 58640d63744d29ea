/**
 * `rcp-gen/conform`: the conformance suite as a library. `runConformance` tests a server (a
 * stdio command or an HTTP base URL) and returns the report; `renderTable` prints it.
 * For a vitest suite, `describeConformance` is in `rcp-gen/vitest`.
 */
export { runConformance, type ConformRunOptions, type ConformTarget } from "./run.js";
export { renderTable, type ConformReport } from "./report.js";
export type { CheckResult, Level, Status } from "./check.js";
export type { ProbeQuery } from "./probe-query.js";
export { checkTable } from "./checks/index.js";
