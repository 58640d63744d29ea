/**
 * A project's settings for rcp-gen (rcp-gen.config.json, or an "rcp-gen" key in package.json)
 * make `npx rcp-gen` and `npx rcp-gen --check` work without flags, from anywhere in the
 * project; a bad setting is named by file, key and problem; and generated code, which is ESM
 * only, is refused where Node would load it as CommonJS.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runCliAsync } from "./run-cli.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-gen-config-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  removeSchemaFolders();
});
const schemaFolder = writeSchemaFolder(minimalSchemaFiles());

/** A project folder holding a copy of the minimal schema and the given files. */
function project(name: string, files: Record<string, unknown>): string {
  const dir = join(scratch, name);
  cpSync(schemaFolder, join(dir, "rcp", "schema"), { recursive: true });
  for (const [path, content] of Object.entries(files))
    writeFileSync(join(dir, path), typeof content === "string" ? content : JSON.stringify(content));
  return dir;
}

describe("settings in rcp-gen.config.json", () => {
  const dir = project("with-config", {
    "package.json": { type: "module" },
    "rcp-gen.config.json": { schema: "rcp/schema", out: "src/generated" },
  });

  it("generate without flags, relative to the file's folder, under a banner saying `npx rcp-gen`", () => {
    const result = runCli(["--quiet"], dir);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(readFileSync(join(dir, "src/generated/server.ts"), "utf8")).toContain("// Regenerate with: npx rcp-gen\n");
  });

  it("check without flags from a folder below, naming paths as seen from there", () => {
    mkdirSync(join(dir, "src/lib"), { recursive: true });
    const result = runCli(["--check"], join(dir, "src/lib"));
    expect(result.stdout).toMatch(/^rcp-gen: \.\.\/generated is up to date/);
    expect(result.status).toBe(0);
  });

  it("give way to flags", () => {
    expect(runCli(["--out", "elsewhere", "--quiet"], dir).status).toBe(0);
    expect(readFileSync(join(dir, "elsewhere/server.ts"), "utf8")).toContain(
      "// Regenerate with: npx rcp-gen --out elsewhere\n",
    );
  });
});

describe("--check agrees with itself: the banner's command comes from the settings, not the argv", () => {
  const dir = project("agreeing", {
    "package.json": { type: "module" },
    "rcp-gen.config.json": { schema: "rcp/schema", out: "src/generated" },
  });
  const sameSettings: Record<string, string[]> = {
    "as flags": ["--schema", "rcp/schema", "--out", "src/generated"],
    "as flags reordered": ["--out", "src/generated", "--schema", "rcp/schema"],
    "with ./ and a trailing slash": ["--schema", "./rcp/schema/", "--out", "./src/generated"],
    "named with --config": ["--config", "rcp-gen.config.json"],
  };
  const checks = (flags: string[]) => runCliAsync([...flags, "--check"], dir);

  it("generated from the settings file: up to date however the same settings are given to --check", async () => {
    expect(runCli(["--quiet"], dir).status).toBe(0);
    const results = await Promise.all(Object.values(sameSettings).map(checks));
    expect(results.map((result, at) => ({ way: Object.keys(sameSettings)[at], ...result }))).toEqual(
      Object.keys(sameSettings).map((way) => ({ way, status: 0, stderr: "", stdout: expect.any(String) as unknown })),
    );
  });

  it("generated from reordered flags with ./: up to date for the settings file, under the same banner", async () => {
    expect(runCli(["--out", "./src/generated/", "--schema", "./rcp/schema", "--quiet"], dir).status).toBe(0);
    expect(readFileSync(join(dir, "src/generated/server.ts"), "utf8")).toContain("// Regenerate with: npx rcp-gen\n");
    expect(await checks([])).toMatchObject({ status: 0, stderr: "" });
  });

  it("names what really differs when only a banner's command does", async () => {
    const file = join(dir, "src/generated/types.ts");
    const stale = readFileSync(file, "utf8").replace(
      "Regenerate with: npx rcp-gen",
      "Regenerate with: npx rcp-gen --schema old",
    );
    writeFileSync(file, stale);
    const result = await checks([]);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toContain("  differs: src/generated/types.ts (only the command in its banner)");
    expect(lines.at(-1)).toBe("rcp-gen: run `npx rcp-gen` to regenerate");
    expect(lines.at(-2)).toBe(
      'rcp-gen: only the banners\' regenerate command differs: src/generated says "npx rcp-gen --schema old", this run "npx rcp-gen"; ' +
        "the code is the same, regenerate to update the banners",
    );
  });
});

describe("moduleFormat in the settings", () => {
  const dir = project("module-format", {
    "package.json": { type: "module" },
    "rcp-gen.config.json": { schema: "rcp/schema", out: "gen", moduleFormat: "js" },
  });
  /** The regenerate command in the banners of `out`'s files (every banner names the same one). */
  const bannerCommand = (out: string) =>
    new Set(
      readdirSync(join(dir, out), { recursive: true, encoding: "utf8" })
        .filter((file) => /\.(ts|js)$/.test(file))
        .flatMap((file) => /Regenerate with: (.*)$/m.exec(readFileSync(join(dir, out, file), "utf8"))?.[1] ?? []),
    );

  it("is what the settings file says, so the banner names no flag and --check agrees", async () => {
    expect(runCli(["--quiet"], dir)).toMatchObject({ status: 0, stderr: "" });
    expect(bannerCommand("gen")).toEqual(new Set(["npx rcp-gen"]));
    expect(await runCliAsync(["--check", "--module-format", "js"], dir)).toMatchObject({ status: 0, stderr: "" });
  }, 120_000); // two js runs, each loading ts-morph and emitting every module

  it("gives way to --module-format, which the banner then names, even as the default ts", () => {
    expect(runCli(["--module-format", "ts", "--out", "gen-ts", "--quiet"], dir)).toMatchObject({
      status: 0,
      stderr: "",
    });
    expect(bannerCommand("gen-ts")).toEqual(new Set(["npx rcp-gen --out gen-ts --module-format ts"]));
  });
});

describe("settings under the rcp-gen key of package.json", () => {
  it("are read when there is no rcp-gen.config.json", () => {
    const dir = project("with-key", {
      "package.json": { type: "module", "rcp-gen": { schema: "rcp/schema", out: "gen" } },
    });
    const result = runCli(["--check"], dir);
    expect(result.stderr).toMatch(
      /^rcp-gen: gen differs from what rcp\/schema generates:\n {2}missing: gen\/types\.ts/,
    );
    expect(result.status).toBe(1);
  });

  it("lose to rcp-gen.config.json in the same folder, with a warning naming the one ignored", () => {
    const dir = project("with-both", {
      "package.json": { type: "module", "rcp-gen": { schema: "nowhere", out: "nowhere" } },
      "rcp-gen.config.json": { schema: "rcp/schema", out: "gen" },
    });
    const result = runCli(["--check"], dir);
    expect(result.stderr.split("\n")[0]).toBe(
      'rcp-gen: using rcp-gen.config.json; the "rcp-gen" key of package.json is ignored',
    );
    expect(result.stderr).toContain("missing: gen/types.ts");
  });
});

describe("a bad setting exits 2 naming file, key and problem", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      "an unknown key",
      { "rcp-gen.config.json": { schema: "s", outDir: "o" } },
      "rcp-gen.config.json: outDir: unknown key (allowed: schema, out, runtime, targets, plugins, examples, moduleFormat, lint, conform)",
    ],
    [
      "a value of the wrong type",
      { "package.json": { type: "module", "rcp-gen": { schema: "s", out: 3 } } },
      "package.json: rcp-gen.out: must be a non-empty string (got 3)",
    ],
    [
      "settings that are not an object",
      { "package.json": { "rcp-gen": ["schema"] } },
      'package.json: rcp-gen: must be an object (got ["schema"])',
    ],
    [
      "a moduleFormat that is neither ts nor js",
      { "rcp-gen.config.json": { schema: "s", out: "o", moduleFormat: "cjs" } },
      'rcp-gen.config.json: moduleFormat: must be "ts" or "js" (got "cjs")',
    ],
    [
      "a conform query that is not a string",
      { "rcp-gen.config.json": { schema: "s", out: "o", conform: { query: 3 } } },
      "rcp-gen.config.json: conform: query must be a non-empty string (got 3)",
    ],
    [
      "a conform setting it does not know",
      { "package.json": { type: "module", "rcp-gen": { schema: "s", out: "o", conform: { queries: ["a"] } } } },
      "package.json: rcp-gen.conform: unknown key queries (allowed: query)",
    ],
    ["a file that is not JSON", { "rcp-gen.config.json": "{ schema: s }" }, "rcp-gen.config.json: not valid JSON: "],
  ];
  it.each(cases)("%s", (name, files, problem) => {
    const result = runCli([], project(`bad-${name.replaceAll(" ", "-")}`, files));
    expect(result.stderr.split("\n")).toEqual([expect.stringContaining(`rcp-gen: ${problem}`), ""]);
    expect(result.status).toBe(2);
  });

  it("a setting left out, and no flag for it: a usage mistake", () => {
    const result = runCli([], project("no-out", { "rcp-gen.config.json": { schema: "rcp/schema" } }));
    expect(result.stderr.split("\n")[0]).toBe('rcp-gen: no --out given, and rcp-gen.config.json sets no "out"');
    expect(result.status).toBe(2);
  });
});

describe("ESM only", () => {
  it("refuses to generate under a package.json without type module, with the one-line fix", () => {
    const dir = project("commonjs", { "package.json": { name: "made-by-npm-init", version: "1.0.0" } });
    const result = runCli(["--schema", "rcp/schema", "--out", "generated"], dir);
    const manifest = join(dir, "package.json");
    expect(result.stderr.split("\n")).toEqual([
      `rcp-gen: generated code is ESM only, but ${manifest} has no "type": "module", so Node would load generated as CommonJS`,
      `fix: add "type": "module" to ${manifest} (in its folder: npm pkg set type=module)`,
      "",
    ]);
    expect(result.status).toBe(2);
    expect(existsSync(join(dir, "generated"))).toBe(false);
  });
});
