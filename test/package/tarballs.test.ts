/**
 * The two packages as npm would publish them: each tarball holds what a user needs and no
 * tests, fixtures, CI files or build caches, and publint and @arethetypeswrong/cli report
 * nothing for it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packWorkspaces, repoRoot, run, type Tarballs } from "./npm.js";

const work = mkdtempSync(join(tmpdir(), "rcp-gen-tarballs-"));
let tarballs: Tarballs;
beforeAll(async () => {
  tarballs = await packWorkspaces(work);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bin = (tool: string) => join(repoRoot, "node_modules", ".bin", tool);

async function entries(tarball: string): Promise<string[]> {
  const listed = await run("tar", ["-tzf", tarball], work);
  expect(listed.status).toBe(0);
  return listed.stdout.split("\n").filter((line) => line !== "" && !line.endsWith("/"));
}

/** Nothing a user's install has no use for. The templates' own tests are part of the project init writes. */
const unwanted = /(^|\/)(test|tests|fixtures?|\.ci|coverage)\/|\.tsbuildinfo$|\.test\.ts$|\.cpuprofile$/;

describe.each(["runtime", "generator"] as const)("the %s tarball", (which) => {
  it("holds its built code, declarations and maps, and nothing of the repository besides", async () => {
    const files = await entries(tarballs[which]);
    const outsideTemplates = files.filter((file) => !file.startsWith("package/templates/"));
    expect(outsideTemplates.filter((file) => unwanted.test(file))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        "package/package.json",
        "package/README.md",
        "package/LICENSE",
        "package/dist/index.js",
        "package/dist/index.d.ts",
        "package/dist/index.d.ts.map",
      ]),
    );
    if (which === "generator") {
      expect(files).toEqual(
        expect.arrayContaining([
          "package/bin/rcp-gen.js",
          "package/dist/cli/main.js",
          "package/schema/methods/retrieve.json",
          "package/templates/init/src/engine.ts",
          "package/templates/init/gitignore",
          "package/templates/orama/src/engine.ts",
          "package/templates/orama/src/orama/store.ts",
          // The page of `rcp-gen inspect`, bundled at build time.
          "package/dist/inspect/page/page.js",
          "package/dist/inspect/page/page.css",
        ]),
      );
      expect(files.filter((file) => file.startsWith("package/templates/init/test/")).sort()).toEqual([
        "package/templates/init/test/conformance.test.ts",
        "package/templates/init/test/frames.test.ts",
      ]);
    }
  });

  it("passes publint, suggestions included", async () => {
    const linted = await run(bin("publint"), ["run", tarballs[which], "--level", "suggestion", "--strict"], work);
    expect(linted.stdout).toMatch(/All good!/);
    expect(linted.status).toBe(0);
  });

  it("passes @arethetypeswrong/cli for ESM consumers (profile esm-only)", async () => {
    // The packages are ESM only by design (README): no main field for node10 resolution, and
    // require() from CommonJS needs the dynamic import TypeScript's node16-cjs mode rightly asks
    // for. The esm-only profile leaves out exactly those two resolutions; every other one
    // (node16 from ESM, bundler) must resolve types and code for every entry.
    const checked = await run(bin("attw"), [tarballs[which], "--profile", "esm-only", "--format", "json"], work);
    const { analysis, problems } = JSON.parse(checked.stdout) as {
      analysis: { entrypoints: Record<string, unknown> };
      problems: Record<string, Array<{ kind: string; resolutionKind?: string; entrypoint?: string }>>;
    };
    const counted = Object.values(problems).flat();
    expect(counted.filter((problem) => !["node10", "node16-cjs"].includes(problem.resolutionKind ?? ""))).toEqual([]);
    expect(Object.keys(analysis.entrypoints).length).toBeGreaterThan(1);
    expect(checked.status).toBe(0);
  });
});
