/**
 * Keeps the benchmark harness (`npm run bench`, issue 6) from rotting: runs it in its tiny mode
 * (a few hundred requests per scenario, real child processes on 127.0.0.1) and checks that every
 * scenario produced finite numbers for every contender and target, and that the JSON file was
 * written. Speed targets are not asserted here: the figures come from a loaded CI machine.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingBinaries } from "../scale/processes.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** Scenarios 13 and 17 start redis-server (13 also HAProxy): without them (outside CI) the harness skips each with one line. */
const SCALE_IDS = ["13", "17"];
const scaleSkipped = new Map(SCALE_IDS.flatMap((id) => [[id, missingBinaries(`scenario ${id}`)] as const]));
for (const reason of scaleSkipped.values()) if (reason !== undefined) console.log(`bench smoke: ${reason}`);
const SCENARIO_IDS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "13", "14", "15", "16", "17"];
const expectedIds = SCENARIO_IDS.filter((id) => scaleSkipped.get(id) === undefined);
const workDir = mkdtempSync(join(tmpdir(), "rcp-bench-smoke-"));
const resultsFile = join(workDir, "bench-results.json");

interface SavedRun {
  mode: string;
  scenarios: Array<{
    id: string;
    rows: Array<{ label: string; metrics: Record<string, number> }>;
    targets: Array<{ name: string; measured: number; pass: boolean }>;
  }>;
  failures: Array<{ id: string; error: string }>;
  skipped: Array<{ id: string; reason: string }>;
}

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("npm run bench, tiny mode", () => {
  let run: { status: number | null; stdout: string; stderr: string };
  beforeAll(() => {
    // Built by `tsc -p tsconfig.json` (the first half of `npm test`).
    run = spawnSync(process.execPath, [join(repoRoot, "dist/test/bench/run.js"), "--tiny", "--out", resultsFile], {
      cwd: repoRoot,
      encoding: "utf8",
      // Scenario 8 packs, scaffolds and npm-installs a project: ~12 s of the run; scenario 9 starts 3 engines, 2 federators, 2 least federators and 2 relays (7 stdio engines under them) each round: ~8 s;
      // scenario 12 starts rcp-gen mcp, a relay and two MCP servers, each with its engine: ~8 s;
      // scenario 13 starts 6 demo replicas, 2 redis-servers and HAProxy: ~25 s;
      // scenario 14 starts the mock, the demo engine twice and three cold callers: ~12 s;
      // scenario 17 starts redis-server and our server 4 times, one wave of streams waiting out their TTL twice: ~15 s.
      timeout: 290_000,
    });
  }, 300_000);

  it("finishes every scenario and exits 0", () => {
    expect(run.stdout.split("\n").filter((line) => line.includes("FAILED"))).toEqual([]);
    expect(run.status, run.stderr).toBe(0);
  });

  it("prints a table per scenario with a PASS or MISS verdict per target", () => {
    for (const id of expectedIds) expect(run.stdout).toMatch(new RegExp(`^## ${id}\\. `, "m"));
    for (const [id, reason] of scaleSkipped)
      if (reason !== undefined) expect(run.stdout).toContain(`## ${id}. ${reason}`);
    expect(run.stdout).toMatch(/^ {2}(PASS|MISS) {2}stdio req\/s, ours \/ floor: /m);
  });

  it("writes every scenario's numbers, for ours and the others, to the JSON file", () => {
    const saved = JSON.parse(readFileSync(resultsFile, "utf8")) as SavedRun;
    expect(saved.mode).toBe("tiny");
    expect(saved.failures).toEqual([]);
    expect(saved.scenarios.map((scenario) => scenario.id)).toEqual(expectedIds);
    expect(saved.skipped).toEqual(
      [...scaleSkipped].flatMap(([id, reason]) => (reason === undefined ? [] : [{ id, reason }])),
    );
    for (const scenario of saved.scenarios) {
      expect(scenario.rows.length, `scenario ${scenario.id} rows`).toBeGreaterThanOrEqual(1);
      for (const row of scenario.rows)
        for (const [name, value] of Object.entries(row.metrics))
          expect(Number.isFinite(value), `scenario ${scenario.id} ${row.label} ${name} = ${value}`).toBe(true);
      for (const target of scenario.targets) {
        expect(Number.isFinite(target.measured), `scenario ${scenario.id} target ${target.name}`).toBe(true);
        expect(typeof target.pass).toBe("boolean");
      }
    }
    const comparative = saved.scenarios.filter((scenario) => ["1", "2", "3", "4", "7"].includes(scenario.id));
    for (const scenario of comparative) expect(scenario.rows.map((row) => row.label)).toContain("ours");
    // Scenario 9 measures each federator (and the least federator) beside its floor, and splits its added latency against it.
    const federation = saved.scenarios.find((scenario) => scenario.id === "9")!;
    expect(federation.rows.map((row) => [row.label, "overFloorP50Ms" in row.metrics])).toEqual([
      ["floor: relay to the slowest engine over HTTP", false],
      ["least federator, HTTP engines: parse, fan out, RRF, serialize on node:http", true],
      ["federator, HTTP engines", true],
      ["floor: relay to the slowest engine over stdio", false],
      ["least federator, stdio engines: parse, fan out, RRF, serialize on node:http", true],
      ["federator, stdio engines", true],
    ]);
  });
});
