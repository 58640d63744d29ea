/**
 * The fast tier (test/vitest.fast.config.ts) runs without a build, so no file in it, and no
 * helper or fixture such a file imports, names a path under dist/: a compiled entry is reached
 * through entryPath() (test/fixtures/entry.ts). Otherwise a stale dist/ from an earlier build
 * would be tested in place of the sources. Nor does any reach Redis, HAProxy or Chromium (the
 * helpers that start them): those files are listed as services.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { slow } from "../vitest.fast.config.js";

/** A string that starts a path into a build (dist/, runtime/dist/, generator/dist/): relative, or from repoRoot. */
const NAMES_THE_BUILD =
  /["'`](\.\.\/)+((runtime|generator)\/)?dist\/|\$\{repoRoot\}((runtime|generator)\/)?dist\/|repoRoot, ["'`]((runtime|generator)\/)?dist\//;

const fastFiles = execFileSync("git", ["ls-files", "test/*.test.ts"], { cwd: repoRoot, encoding: "utf8" })
  .split("\n")
  .filter((file) => file !== "" && !slow.some((path) => (path.endsWith("/") ? file.startsWith(path) : file === path)));

/** The test helpers, fixtures and examples `file` imports, relatively, as repository paths. */
function imported(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), "utf8");
  return [...text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)\.js["']/g)]
    .map(([, specifier]) => posix.join(posix.dirname(file), `${specifier}.ts`))
    .filter((path) => /^(test|docs\/examples)\//.test(path) && existsSync(join(repoRoot, path)));
}

function reachedFromFastTier(): Set<string> {
  const reached = new Set(fastFiles);
  for (const file of reached) for (const next of imported(file)) reached.add(next);
  return reached;
}

it("the fast tier's files and what they import name no path under dist/", () => {
  const reached = reachedFromFastTier();
  expect(reached).toContain("test/runtime/server/helpers/stdio-child.ts");
  const naming = [...reached].filter((file) => NAMES_THE_BUILD.test(readFileSync(join(repoRoot, file), "utf8")));
  expect(naming).toEqual([]);
});

it("no fast-tier file starts Redis, HAProxy or Chromium", () => {
  const reached = reachedFromFastTier();
  expect(reached).toContain("test/runtime/server/helpers/stdio-child.ts");
  expect([...reached].filter((file) => file === "test/scale/processes.ts" || file === "test/web/chromium.ts")).toEqual(
    [],
  );
});
