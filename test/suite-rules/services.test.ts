/**
 * A test that needs Redis, HAProxy or Chromium must skip with one line where the program is not
 * installed (a new contributor's machine: Node, npm and Python only), and fail where CI requires
 * it. Both helpers that decide this, test/scale/processes.ts (`missingBinaries`) and
 * test/web/chromium.ts (`runBrowserSuite`, `announceBrowserSkip`), are what CI's second run
 * reaches: `vitest related` on them, with the programs hidden (.ci/run). So every file that starts
 * one of these programs must go through a helper; one that names a program without importing
 * a helper would be missed there, and fails here.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";

const HELPERS = ["test/scale/processes.ts", "test/web/chromium.ts"];
/** What starts one of the programs, in code: their paths or names, and Playwright. */
const STARTS_A_SERVICE =
  /\b(REDIS_SERVER|HAPROXY|CHROMIUM|launchChromium)\b|["'`](\/usr\/s?bin\/)?(redis-server|haproxy|chromium)["'`]|playwright-core/;

/** The code of a TypeScript file without its comments. */
function code(file: string): string {
  return readFileSync(join(repoRoot, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
}

/** Whether `file` imports one of the helpers (relative imports, resolved against the file). */
function importsAHelper(file: string): boolean {
  return [...code(file).matchAll(/from\s+["'](\.{1,2}\/[^"']+)\.js["']/g)].some(([, specifier]) =>
    HELPERS.includes(posix.join(posix.dirname(file), `${specifier}.ts`)),
  );
}

describe("tests that need Redis, HAProxy or Chromium", () => {
  it("start them only through the helpers that skip where they are missing", () => {
    const files = execFileSync("git", ["ls-files", "test/*.ts", "docs/examples/*.ts"], {
      cwd: repoRoot,
      encoding: "utf8",
    })
      .split("\n")
      // This file names the programs in its own pattern.
      .filter((file) => file !== "" && !HELPERS.includes(file) && file !== "test/suite-rules/services.test.ts");
    const starting = files.filter((file) => STARTS_A_SERVICE.test(code(file)));
    expect(starting.length).toBeGreaterThan(0);
    const unguarded = starting.filter((file) => !importsAHelper(file));
    expect(unguarded).toEqual([]);
  });
});
