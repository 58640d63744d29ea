/**
 * `rcp-gen conform` against the demo engine, which declares L2 (§14): over stdio, with
 * --slow-meta making its calls slow enough that a cancel (-32006) and a deadline (-32014) must
 * win, and over HTTP, reading the --json report.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STAGE_DELAY_META_KEY } from "../../docs/examples/demo-engine/server.js";
import { DEMO, runConform, startHttpChild, type HttpChild, type JsonReport } from "./conform-cli.js";

describe("rcp-gen conform against the demo engine", () => {
  it("certifies L2 over stdio, cancel and deadline included, with a table citing a section per check", async () => {
    const slow = JSON.stringify({ [STAGE_DELAY_META_KEY]: 150 });
    const run = await runConform(["--slow-meta", slow, "--", ...DEMO, "--stdio"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("L0 certified · L1 certified · L2 certified");
    expect(run.stdout).toContain("declared L2: holds");
    expect(run.stdout).toMatch(/\n\d+ checks: \d+ pass, 0 fail, 0 warn \(SHOULD\), 0 skip, in \d+ ms\n/);
    for (const id of ["cancel:effective", "deadline:enforced", "stdio.split-message", "notify.unanswered:gated-method"])
      expect(run.stdout).toMatch(new RegExp(`\\n(L0|L1|L2) +pass +§[^\\n]* ${id.replace(".", "\\.")}:`));
    expect(run.status).toBe(0);
  });

  describe("over HTTP", () => {
    let demo: HttpChild;
    beforeAll(async () => {
      demo = await startHttpChild([...DEMO, "--port", "0"]);
    });
    afterAll(() => demo.stop());

    it("certifies L2 with --json, more checks than the public harness's 30, each citing a section", async () => {
      const run = await runConform(["--json", "--http", demo.url]);
      expect(run.stderr).toBe("");
      const report = JSON.parse(run.stdout) as JsonReport;
      expect(report).toMatchObject({ certifiedLevel: "L2", declaredLevel: "L2", declarationHolds: true });
      expect(report.counts["fail"]).toBe(0);
      expect(report.checks.length).toBeGreaterThan(100);
      expect(new Set(report.checks.map((check) => check.id.split(":")[0])).size).toBeGreaterThan(30);
      for (const check of report.checks) expect(check.section, check.id).toMatch(/^§\d/);
      const sse = report.checks.filter((check) => check.id.startsWith("http.sse:")).map((check) => check.status);
      expect(sse).toEqual(["pass", "pass", "pass"]);
      // §5.2, §7.14: cancellation is checked over HTTP too; making it effective needs --slow-meta.
      const cancel = report.checks.filter((check) => check.id.startsWith("cancel:"));
      expect(cancel.map((check) => [check.id, check.status])).toEqual([
        ["cancel:stream-closed", "pass"],
        ["cancel:answered-once", "pass"],
        ["cancel:effective", "skip"],
      ]);
      expect(run.status).toBe(0);
    });
  });

  describe("over HTTP, offering resumable streams (docs/resumable-streams.md)", () => {
    let demo: HttpChild;
    beforeAll(async () => {
      demo = await startHttpChild([...DEMO, "--port", "0", "--resumable"]);
    });
    afterAll(() => demo.stop());

    it("checks the numbered stream, its replay and a forged resume, and still certifies L2", async () => {
      const run = await runConform(["--json", "--http", demo.url]);
      const report = JSON.parse(run.stdout) as JsonReport;
      const resumable = report.checks.filter((check) => check.id.startsWith("resumable.replay:"));
      expect(resumable.map((check) => [check.id, check.status])).toEqual([
        ["resumable.replay:numbered", "pass"],
        ["resumable.replay:replayed", "pass"],
        ["resumable.replay:refused", "pass"],
      ]);
      expect(report).toMatchObject({ certifiedLevel: "L2", declarationHolds: true });
      expect(report.counts["fail"]).toBe(0);
    });

    it("a server that does not offer them: the check is skipped", async () => {
      const plain = await startHttpChild([...DEMO, "--port", "0"]);
      try {
        const report = JSON.parse((await runConform(["--json", "--http", plain.url])).stdout) as JsonReport;
        expect(report.checks.find((check) => check.id === "resumable.replay")?.status).toBe("skip");
      } finally {
        await plain.stop();
      }
    });
  });
});
