/**
 * A project fresh from `rcp-gen init` passes its own conformance run: `rcp-gen conform` in the
 * project reads its settings (rcp-gen.config.json) for the schema, so the vendor method
 * x-example/lookup is checked too, probed with the id its schema's `examples` give, and the
 * engine notes its `strict: false` fallbacks: no failure, no warning. A lookup of an id the
 * engine lacks answers NotFound, which the method's schema documents (x-rcp.errors): that is
 * a correct answer, and the report says by which rule. The project's `npm test` runs the same
 * suite through describeConformance (run for real by test/package/user-project.test.ts).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "@rcp-gen/runtime/node";
import type { RcpServer } from "@rcp-gen/runtime";
import { runConformance } from "rcp-gen/conform";
import { repoRoot, runCli } from "../generator/run-cli.js";
import { runConform, type JsonReport } from "./conform-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-gen-scaffold-conform-"));
const project = join(scratch, "engine");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(() => {
  expect(runCli(["init", project], scratch).status).toBe(0);
  // The repository's install stands in for the project's own `npm install`: the same packages.
  symlinkSync(join(repoRoot, "node_modules"), join(project, "node_modules"), "dir");
  const compiled = spawnSync(join(repoRoot, "node_modules/.bin/tsc"), ["-p", "."], { cwd: project, encoding: "utf8" });
  expect(`${compiled.stdout}${compiled.stderr}`).toBe("");
});

describe("rcp-gen conform against a fresh rcp-gen init project", () => {
  it("finds no failure and no warning, against the project's schema, its vendor method included", async () => {
    const run = await runConform(["--json", "--", process.execPath, "dist/server.js", "--stdio"], project);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout) as JsonReport & { schema: string };
    expect(report.schema).toBe(join(project, "schema"));
    const notPassed = report.checks.filter((check) => check.status === "fail" || check.status === "warn");
    expect(notPassed).toEqual([]);
    expect(report.checks.find((check) => check.id === "method.valid-call:x-example/lookup")?.status).toBe("pass");
    expect(report).toMatchObject({ declaredLevel: "L0", certifiedLevel: "L0", declarationHolds: true });
    expect(run.status).toBe(0);
  });

  it("counts NotFound, which the method's schema documents, as a correct answer to a probe, and says so", async () => {
    // The project's schema without the example: the probe's id then names no document.
    const schema = join(scratch, "schema-without-examples");
    cpSync(join(project, "schema"), schema, { recursive: true });
    const file = join(schema, "methods/x-example-lookup.json");
    const method = JSON.parse(readFileSync(file, "utf8")) as { $defs: { params: { examples?: unknown } } };
    delete method.$defs.params.examples;
    writeFileSync(file, JSON.stringify(method));
    const { server } = (await import(pathToFileURL(join(project, "dist/engine.js")).href)) as { server: RcpServer };
    const listening = await listen(server, { port: 0 });
    try {
      const report = await runConformance({ http: listening.url }, { schema });
      expect(report.checks.find((check) => check.id === "method.valid-call:x-example/lookup")?.status).toBe("pass");
      expect(report.notes).toContain(
        'x-example/lookup answered its probe with error -32015 "Not found: no document retrieval", NotFound, an error its schema documents (x-rcp.errors): ' +
          "a documented domain error counts as a correct answer, since a probe's params may name nothing the engine holds",
      );
    } finally {
      await listening.close();
    }
  });

  it("has npm test build the engine, then run the frame tests and the conformance suite (describeConformance)", () => {
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { scripts: { test: string } };
    expect(manifest.scripts.test).toBe("npm run -s build && vitest run");
    expect(readFileSync(join(project, "test/conformance.test.ts"), "utf8")).toContain(
      'describeConformance({ command: [process.execPath, serverScript, "--stdio"] });',
    );
  });
});
