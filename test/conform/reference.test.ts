/**
 * `rcp-gen conform` against the reference Python example server (../shared/reference/rcp-ref),
 * over stdio and HTTP: its report names the spec deviations that folder's README lists for it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { failing, runConform, startOnPort, type HttpChild, type JsonReport } from "./conform-cli.js";

const reference = join(repoRoot, "..", "shared", "reference", "rcp-ref");
const present = existsSync(join(reference, "examples", "example_server.py"));
if (!present) console.log(`skipping the reference server's conformance: ${reference} is absent`);

/** The README's deviations of the Python example server, as the checks that catch them. */
const deviations: Record<string, string> = {
  "rerank takes documents and answers results (§7.6: passages in, scores out)": "method.valid-call:rerank",
  "the embed capability omits identity (§6)": "capability.metadata:embed",
  "an unadvertised graph op is served (§7.7, §14.1: -32005)": "option.unadvertised:graph.op",
  "unadvertised retrieve units are served (§7.7, §14.1: -32005)": "option.unadvertised:retrieve.unit",
};
const httpDeviations: Record<string, string> = {
  "initialize state is kept for the whole process (§5.2: request-scoped)": "session.http-initialize-idempotent",
  "a gated call needs a previous initialize (§5.2: request-scoped)": "session.http-needs-no-initialize",
  "a body whose method differs from the URL path is answered (§5.2: -32600)": "http.path-mismatch",
};

async function conform(args: readonly string[]): Promise<JsonReport> {
  const run = await runConform(["--json", ...args]);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(1);
  return JSON.parse(run.stdout) as JsonReport;
}

describe.skipIf(!present)("rcp-gen conform against the reference Python example server", () => {
  it("over stdio names its deviations, and its declared L2 does not hold", async () => {
    const report = await conform(["--cwd", reference, "--", "python3", "examples/example_server.py"]);
    expect(report).toMatchObject({ declaredLevel: "L2", declarationHolds: false });
    const failed = failing(report);
    for (const [deviation, check] of Object.entries(deviations)) expect(failed, deviation).toContain(check);
    const rerank = report.checks.find((check) => check.id === "method.valid-call:rerank")!;
    expect(rerank.detail).toBe("result.scores: expected a value (required), found nothing");
  });

  describe("over HTTP", () => {
    let server: HttpChild;
    beforeAll(async () => {
      server = await startOnPort(
        (port) => ["python3", "examples/example_server.py", "--http", String(port)],
        reference,
      );
    });
    afterAll(() => server.stop());

    it("names the HTTP deviations too", async () => {
      const failed = failing(await conform(["--http", server.url]));
      for (const [deviation, check] of Object.entries({ ...deviations, ...httpDeviations }))
        expect(failed, deviation).toContain(check);
    });
  });
});
