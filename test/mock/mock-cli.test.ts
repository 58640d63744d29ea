/**
 * `rcp-gen mock` as a user runs it (the built CLI in a child process): `rcp-gen conform`
 * certifies the level it declares over stdio and HTTP; the reference Python and Node clients
 * (code nobody here wrote, ../shared/reference/rcp-ref) drive it over stdio and HTTP, every
 * answer validates, and the report names their known deviation (embed/sparse sends `inputs`,
 * §7.4) in the summary on stderr and in --report's JSON.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import type { ClientReport } from "../../generator/src/mock/index.js";
import { runConform } from "../conform/conform-cli.js";
import { repoRoot } from "../generator/run-cli.js";
import { announceSkip, DRIVERS, referencePresent, type Report } from "../interop/reference.js";

/** Each case starts processes (the CLI, an engine, a conformance run): minutes on a loaded machine, not seconds. */
const PROCESS_TIMEOUT_MS = 180_000;
const CLI = join(repoRoot, "generator/bin/rcp-gen.js");
const CAPABILITIES = join(repoRoot, "test/fixtures/mock/capabilities.json");
const SCHEMA_ALONE = [process.execPath, CLI, "mock", "--schema", join(repoRoot, "schema")];
/** The mock advertising every method the reference drivers call. */
const MOCK = [...SCHEMA_ALONE, "--capabilities", CAPABILITIES];

/** The mock over HTTP on a free port: its URL, and a stop that sends SIGINT and returns stderr. */
async function mockOverHttp(command: readonly string[]) {
  const [program, ...rest] = command;
  const child = spawn(program!, [...rest, "--port", "0"], { cwd: repoRoot });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`mock exited ${code}: ${stderr}`)));
  });
  const stop = () =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      child.once("exit", (code) => resolve({ code, stderr }));
      child.kill("SIGINT");
    });
  return { url, stop };
}

describe("rcp-gen mock: rcp-gen conform certifies the level it declares", { timeout: PROCESS_TIMEOUT_MS }, () => {
  it("over stdio, with the project's settings (its examples), L0 holds", async () => {
    const run = await runConform(["--timeout", "20000", "--", process.execPath, CLI, "mock", "--stdio"]);
    expect(run.stdout).toContain("declared L0: holds");
    expect(run.status).toBe(0);
  });

  it("over HTTP, from the schema alone (sampled results and capabilities), L0 holds", async () => {
    const mock = await mockOverHttp(SCHEMA_ALONE);
    const run = await runConform(["--timeout", "20000", "--schema", join(repoRoot, "schema"), "--http", mock.url]);
    await mock.stop();
    expect(run.stdout).toContain("declared L0: holds");
    expect(run.status).toBe(0);
  });
});

const suite = referencePresent ? describe : describe.skip;
if (!referencePresent) announceSkip();

/**
 * Every call the drivers made got a result: the mock validates each result before sending it
 * (a malformed one would be -32603, with a "malformed result" line on its stderr), and the
 * rules shaped it to the request (k = 3 hits, one sparse vector per text).
 */
function expectAnswered(report: Report) {
  for (const method of [
    "embed",
    "embed/sparse",
    "rerank",
    "retrieve",
    "query/transform",
    "index/add",
    "index/delete",
    "ping",
  ])
    expect(report[method], `${method}: ${JSON.stringify(report[method])}`).toHaveProperty("ok");
  const hits = report.retrieve?.ok as { hits?: unknown[] } | unknown[];
  expect(Array.isArray(hits) ? hits : hits.hits).toHaveLength(3);
}

suite(
  "rcp-gen mock: the reference clients drive it, and it reports what they do wrong",
  { timeout: PROCESS_TIMEOUT_MS },
  () => {
    it.each(["python", "node"] as const)("the reference %s client over stdio", async (client) => {
      const file = join(mkdtempSync(join(tmpdir(), "rcp-mock-report-")), "report.json");
      const report = await DRIVERS[client](["stdio", ...MOCK, "--stdio", "--report", file]);
      expectAnswered(report);
      const written = JSON.parse(readFileSync(file, "utf8")) as ClientReport;
      expect(written.violations).toContainEqual(
        expect.objectContaining({ rule: "params.schema", section: "§7.4", method: "embed/sparse", answer: "result" }),
      );
    });

    it.each(["python", "node"] as const)("the reference %s client over HTTP", async (client) => {
      const file = join(mkdtempSync(join(tmpdir(), "rcp-mock-report-")), "report.json");
      const mock = await mockOverHttp([...MOCK, "--report", file]);
      const report = await DRIVERS[client](["http", mock.url]);
      const { code, stderr } = await mock.stop();
      expectAnswered(report);
      expect(code).toBe(0);
      expect(stderr).not.toContain("malformed");
      expect(stderr).toMatch(
        /§7\.4 {2}params\.schema embed\/sparse #\S+: params\.texts: must have required property 'texts' \(answered: result\)/,
      );
      const written = JSON.parse(readFileSync(file, "utf8")) as ClientReport;
      expect(written.violations.map((violation) => violation.section)).toContain("§7.4");
    });
  },
);
