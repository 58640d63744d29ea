/** The verdict of a conformance run (§14.5): which level is certified, and whether the declared one holds. */
import { expect, it } from "vitest";
import type { CheckResult, Level, Status } from "../../generator/src/conform/check.js";
import { certify, renderTable } from "../../generator/src/conform/report.js";

const check = (level: Level, status: Status, id = `${level}-${status}`): CheckResult => ({
  id,
  section: "§14",
  level,
  must: status !== "warn" && !id.endsWith("should"),
  title: id,
  status,
  ...(status === "pass" ? {} : { detail: `why ${id}` }),
});
const run = (declaredLevel: unknown, results: CheckResult[]) =>
  certify({
    transport: "stdio",
    target: "server",
    schema: "schema",
    server: { name: "s", version: "1" },
    declaredLevel,
    level: null,
    query: { text: "retrieval", source: "the default", given: false, found: false, levelQuery: "retrieval" },
    results,
    notes: [],
    milliseconds: 1,
  });

it("certifies the highest level with no failed MUST at or below it, and a pass of its own above L0", () => {
  const l0Only = [check("L0", "pass"), check("L0", "warn"), check("L1", "fail"), check("L2", "pass")];
  expect(run("L0", l0Only)).toMatchObject({ certifiedLevel: "L0", declarationHolds: true });
  expect(run("L1", l0Only)).toMatchObject({ certifiedLevel: "L0", declarationHolds: false });
  expect(run("L2", [check("L0", "pass"), check("L1", "pass"), check("L2", "skip")])).toMatchObject({
    certifiedLevel: "L1",
    declarationHolds: false,
  });
  expect(run("L2", [check("L0", "pass"), check("L1", "pass"), check("L2", "pass")]).certifiedLevel).toBe("L2");
  expect(run(undefined, [check("L0", "pass")])).toMatchObject({ certifiedLevel: "L0", declarationHolds: false });
  expect(run("L0", [check("L0", "fail"), check("L1", "pass")])).toMatchObject({ certifiedLevel: null });
});

it("renders one line per check, details under what did not pass, counts and the verdict", () => {
  const table = renderTable(run("L1", [check("L0", "pass"), check("L0", "warn"), check("L1", "fail")]));
  expect(table).toContain("L0     warn    §14      L0-warn: L0-warn\n                        -> why L0-warn\n");
  expect(table).toContain("L1     FAIL    §14      L1-fail: L1-fail\n                        -> why L1-fail\n");
  expect(table).toContain("3 checks: 1 pass, 1 fail, 1 warn (SHOULD), 0 skip, in 1 ms\n");
  expect(table).toContain("L0 certified · L1 not certified · L2 not certified\ndeclared L1: does NOT hold\n");
});

it("holds an inconclusive MUST short of certifying its level, without calling the level failed", () => {
  const noHits = [check("L0", "pass"), check("L1", "pass"), check("L1", "inconclusive")];
  expect(run("L1", noHits)).toMatchObject({ certifiedLevel: "L0", inconclusiveLevel: "L1", declarationHolds: false });
  // A failure below it decides the matter: the level is shown not to hold.
  expect(run("L1", [check("L0", "fail"), check("L1", "inconclusive")])).toMatchObject({
    certifiedLevel: null,
    inconclusiveLevel: null,
  });
  // An inconclusive SHOULD lowers no level, as a failed one.
  const should = check("L1", "inconclusive", "L1-should");
  expect(run("L1", [check("L0", "pass"), check("L1", "pass"), should])).toMatchObject({ certifiedLevel: "L1" });
  const table = renderTable(run("L1", noHits));
  expect(table).toContain("L1     inconclusive  §14      L1-inconclusive: L1-inconclusive\n");
  expect(table).toContain("3 checks: 2 pass, 0 fail, 0 warn (SHOULD), 1 inconclusive, 0 skip, in 1 ms\n");
  expect(table).toContain(
    "L0 certified · L1 inconclusive · L2 inconclusive\ndeclared L1: inconclusive: why L1-inconclusive (certified L0)\n",
  );
});
