/**
 * `rcp-gen init`: what it writes (the e2e test in test/package installs, builds, starts and
 * tests such a project), that it refuses a folder that is not empty unless forced, and that
 * the scaffold's tools are the versions this repository tests with.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scaffoldTools, templateDependencies } from "../../generator/src/init/manifest.js";
import { repoRoot, runCli } from "./run-cli.js";

const scratch = mkdtempSync(join(tmpdir(), "rcp-gen-init-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

/** The package.json fields these tests read. */
interface PackageJson {
  version: string;
  scripts: Record<"lint" | "breaking", string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const readManifest = (path: string) => readJson(path) as PackageJson;

/** Every file below `dir`, relative, sorted. */
const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();

describe("rcp-gen init into a folder that is not empty", () => {
  const dir = join(scratch, "My Engine");
  mkdirSync(dir);
  writeFileSync(join(dir, "notes.md"), "mine");

  it("refuses, naming what the folder holds, and writes nothing", () => {
    const result = runCli(["init", dir], scratch);
    expect(result.stderr.split("\n")).toEqual([
      `rcp-gen: ${dir} is not empty (it holds notes.md)`,
      `hint: rcp-gen init ${dir} --force writes the project over it`,
      "",
    ]);
    expect(result.status).toBe(2);
    expect(readdirSync(dir)).toEqual(["notes.md"]);
  });

  it("with --force, writes the whole project beside what was there, its code generated and up to date", () => {
    const result = runCli(["init", "My Engine", "--force"], scratch);
    expect(result.stderr).toBe("");
    expect(result.stdout.split("\n")).toEqual([
      "rcp-gen: made an RCP engine project in My Engine: .gitignore, README.md, notes.md, package.json, rcp-gen.config.json, schema, src, test, tsconfig.json",
      "next: cd 'My Engine' && npm install && npm start",
      "",
    ]);
    expect(result.status).toBe(0);

    const shipped = filesBelow(join(repoRoot, "schema"));
    expect(filesBelow(join(dir, "schema"))).toEqual([...shipped, "methods/x-example-lookup.json"].sort());
    for (const file of shipped)
      expect(readFileSync(join(dir, "schema", file), "utf8")).toBe(
        readFileSync(join(repoRoot, "schema", file), "utf8"),
      );
    expect(filesBelow(join(dir, "src"))).toEqual([
      "client.ts",
      "dev.ts",
      "engine.ts",
      "generated/client.ts",
      "generated/index.ts",
      "generated/manifest.json",
      "generated/methods.ts",
      "generated/node.ts",
      "generated/rcp.schema.json",
      "generated/server.ts",
      "generated/types.ts",
      "generated/validators.ts",
      "server.ts",
    ]);
    expect(readFileSync(join(dir, "src/generated/client.ts"), "utf8")).toContain("xExampleLookup(");
    expect(readJson(join(dir, "rcp-gen.config.json"))).toEqual({ schema: "schema", out: "src/generated" });

    const { version } = readManifest(join(repoRoot, "generator/package.json"));
    const manifest = readManifest(join(dir, "package.json"));
    expect(manifest).toMatchObject({ name: "my-engine", type: "module", private: true });
    expect(Object.keys(manifest["scripts"])).toEqual([
      "generate",
      "check",
      "build",
      "start",
      "serve",
      "dev",
      "test",
      "lint",
      "breaking",
    ]);
    expect(manifest["dependencies"]).toEqual({ "@rcp-gen/runtime": version });
    expect(manifest["devDependencies"]).toEqual({ "rcp-gen": version, ...scaffoldTools });

    const check = runCli(["--check"], dir);
    expect(check.stdout).toMatch(/^rcp-gen: src\/generated is up to date/);
    expect(check.status).toBe(0);
  });

  it("passes its CI steps: lint, and breaking against origin/main (here a ref to its first commit)", () => {
    const manifest = readManifest(join(dir, "package.json"));
    expect(runCli(manifest["scripts"]["lint"].split(" ").slice(1), dir)).toMatchObject({ status: 0 });
    const git = (...args: string[]) => expect(spawnSync("git", args, { cwd: dir }).status).toBe(0);
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "scaffold");
    git("update-ref", "refs/remotes/origin/main", "HEAD");
    const breaking = runCli(manifest["scripts"]["breaking"].split(" ").slice(1), dir);
    expect(breaking.stdout).toBe("rcp-gen breaking: no changes against origin/main:schema\n");
    expect(breaking.status).toBe(0);
  });
});

it("gives the scaffold the tool and template versions this repository builds and tests with", () => {
  const ours = readManifest(join(repoRoot, "package.json"))["devDependencies"];
  for (const [tool, version] of Object.entries({ ...scaffoldTools, ...templateDependencies.orama }))
    expect({ tool, version }).toEqual({ tool, version: ours[tool] });
});

describe("rcp-gen init --template orama", () => {
  const dir = join(scratch, "orama-engine");

  it("writes the Orama example engine's store as src/orama/ and an engine over it, with @orama/orama a dependency", () => {
    const result = runCli(["init", dir, "--template", "orama"], scratch);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const example = join(repoRoot, "docs/examples/orama-engine/orama");
    expect(filesBelow(join(dir, "src/orama"))).toEqual(filesBelow(example));
    for (const file of filesBelow(example))
      expect(readFileSync(join(dir, "src/orama", file), "utf8")).toBe(readFileSync(join(example, file), "utf8"));
    expect(readFileSync(join(dir, "src/engine.ts"), "utf8")).toContain("OramaStore.open(startingDocuments)");
    const { version } = readManifest(join(repoRoot, "generator/package.json"));
    expect(readManifest(join(dir, "package.json"))["dependencies"]).toEqual({
      "@rcp-gen/runtime": version,
      ...templateDependencies.orama,
    });
  });

  it("refuses a template it does not have, naming the ones it has", () => {
    const result = runCli(["init", join(scratch, "other"), "--template", "lucene"], scratch);
    expect(result.stderr.split("\n")).toEqual([
      'rcp-gen: --template cannot be "lucene" (choices: "plain", "orama")',
      "hint: rcp-gen init --help lists its options",
      "",
    ]);
    expect(result.status).toBe(2);
  });
});
