/**
 * The API reference (`npm run docs`): TypeDoc over the public entries of @rcp-gen/runtime and
 * rcp-gen's plugin API builds with no warning, and its warnings are errors, so an export
 * without a doc comment or a `{@link}` to nothing fails here. It runs with the TypeScript 6
 * of docs/api-reference (the repository's typescript@7 has no compiler API).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, expect, it } from "vitest";
import { repoRoot } from "../generator/run-cli.js";
import { scratchFolder } from "../generator/typecheck.js";

const tool = join(repoRoot, "docs", "api-reference");
const out = scratchFolder("api-reference-");
afterAll(() => rmSync(out, { recursive: true, force: true }));

it("fails on any warning, an undocumented export or a broken link among them", () => {
  const settings = JSON.parse(readFileSync(join(tool, "typedoc.json"), "utf8")) as Record<string, unknown>;
  expect(settings.treatWarningsAsErrors).toBe(true);
  expect(settings.validation).toMatchObject({ notDocumented: true, invalidLink: true, notExported: true });
  expect(settings.packagesRequiringDocumentation).toEqual(["@rcp-gen/runtime", "rcp-gen"]);
});

it("builds the reference of every public entry without a warning", () => {
  const typedoc = join(tool, "node_modules", "typedoc", "bin", "typedoc");
  const built = spawnSync(process.execPath, [typedoc, "--out", out], { cwd: tool, encoding: "utf8", timeout: 240_000 });
  const output = stripVTControlCharacters(`${built.stdout}${built.stderr}`);
  expect(output).not.toContain("[warning]");
  expect(output).not.toContain("[error]");
  expect(built.status).toBe(0);
  const index = readFileSync(join(out, "README.md"), "utf8");
  for (const entry of [
    "@rcp-gen/runtime",
    "@rcp-gen/runtime/node",
    "@rcp-gen/runtime/federation",
    "@rcp-gen/runtime/otel",
    "@rcp-gen/runtime/testing",
    "rcp-gen",
  ])
    expect(index).toContain(`[${entry}]`);
  expect(existsSync(join(out, "@rcp-gen", "runtime", "node", "functions", "serveStdio.md"))).toBe(true);
  expect(readFileSync(join(out, "rcp-gen", "functions", "definePlugin.md"), "utf8")).toContain("definePlugin");
}, 240_000);
