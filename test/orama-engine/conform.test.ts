/**
 * `rcp-gen conform` certifies the Orama example engine at the level it declares, L2 (§14.5):
 * over stdio, its searches made slow (--slow-meta) so that a cancel (-32006) and a deadline
 * (-32014) must win, and over HTTP, reading the --json report.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEARCH_DELAY_META_KEY } from "../../docs/examples/orama-engine/server.js";
import { runConform, startHttpChild, type HttpChild, type JsonReport } from "../conform/conform-cli.js";
import { ORAMA_SERVE } from "./orama-child.js";

describe("rcp-gen conform against the Orama engine", () => {
  it("certifies L2 over stdio, cancel and deadline included", async () => {
    const slow = JSON.stringify({ [SEARCH_DELAY_META_KEY]: 150 });
    const run = await runConform(["--slow-meta", slow, "--", process.execPath, ORAMA_SERVE, "--stdio"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("L0 certified · L1 certified · L2 certified");
    expect(run.stdout).toContain("declared L2: holds");
    expect(run.stdout).toMatch(/\n\d+ checks: \d+ pass, 0 fail, 0 warn \(SHOULD\), \d+ skip, in \d+ ms\n/);
    for (const id of [
      "cancel:effective",
      "deadline:enforced",
      "l1.modes-rank",
      "filter.rules:retrieve.unadvertised-operator",
    ])
      expect(run.stdout).toMatch(new RegExp(`\\n(L0|L1|L2) +pass +§[^\\n]* ${id.replace(".", "\\.")}:`));
    expect(run.status).toBe(0);
  });

  describe("over HTTP", () => {
    let engine: HttpChild;
    beforeAll(async () => {
      engine = await startHttpChild([process.execPath, ORAMA_SERVE, "--port", "0"]);
    });
    afterAll(() => engine.stop());

    it("certifies L2 with --json, no check failing or warning", async () => {
      const run = await runConform(["--json", "--http", engine.url]);
      expect(run.stderr).toBe("");
      const report = JSON.parse(run.stdout) as JsonReport;
      expect(report).toMatchObject({ certifiedLevel: "L2", declaredLevel: "L2", declarationHolds: true });
      expect(report.checks.filter((check) => check.status === "fail" || check.status === "warn")).toEqual([]);
      expect(report.checks.filter((check) => check.id.startsWith("http.sse:")).map((check) => check.status)).toEqual([
        "pass",
        "pass",
        "pass",
      ]);
      expect(run.status).toBe(0);
    });
  });
});
