/**
 * Checks that cannot pass for the wrong reason: an L1 engine that advertises a filter without
 * `exists` and no citations, and finds nothing, leaves l1.filter-and-citations nothing to check,
 * so it is skipped with that reason rather than passed (§14.2, §8). In-process, over HTTP.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { listen } from "@rcp-gen/runtime/node";
import { runConformance, type ConformReport } from "rcp-gen/conform";
import { createServer } from "../../generated/index.js";

const server = createServer({
  info: { name: "finds-nothing", version: "1.0.0" },
  conformance: "L1",
  capabilities: { retrieve: { maxK: 10, modes: ["sparse"] }, filter: { fields: ["lang"], operators: ["eq"] } },
  handlers: { retrieve: () => ({ hits: [] }) },
});
let stop: () => Promise<void>;
let report: ConformReport;
beforeAll(async () => {
  const listening = await listen(server, { port: 0 });
  stop = () => listening.close();
  report = await runConformance({ http: listening.url });
});
afterAll(() => stop());

it("skips l1.filter-and-citations, saying there was nothing to check, instead of passing it", () => {
  expect(report.checks.find((check) => check.id === "l1.filter-and-citations")).toMatchObject({
    status: "skip",
    detail: "nothing to check: citations is not advertised and exists is not advertised",
  });
});
