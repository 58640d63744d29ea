import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cliEntry, runCli } from "./run-cli.js";
import { minimalSchemaFiles, removeSchemaFolders, writeSchemaFolder } from "./schema-fixture.js";

const schema = writeSchemaFolder(minimalSchemaFiles());
const out = `${schema}-out`;
const watcher = spawn(
  process.execPath,
  [cliEntry, "--schema", schema, "--out", out, "--watch"],
  // Outside the repository, whose package.json settings would add the docs targets.
  { cwd: tmpdir(), stdio: ["ignore", "pipe", "pipe"] },
);
let stdout = "";
let stderr = "";
watcher.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
watcher.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));

afterAll(() => {
  watcher.kill();
  removeSchemaFolders();
  rmSync(out, { recursive: true, force: true });
});

/** Resolves once `read()` has matched `pattern` `times` times; the test's own timeout bounds the wait. */
async function waitFor(read: () => string, pattern: RegExp, times: number): Promise<void> {
  const count = () => read().match(new RegExp(pattern.source, "g"))?.length ?? 0;
  while (count() < times) {
    if (watcher.exitCode !== null) throw new Error(`rcp-gen --watch exited: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("--watch regenerates on every schema change and survives a broken edit", async () => {
  await waitFor(() => stdout, /watching/, 1);
  expect(stdout).toMatch(/wrote 9 files for 2 methods and 1 notifications/);

  const hitPath = join(schema, "types/hit.json");
  const hit = JSON.parse(readFileSync(hitPath, "utf8")) as object;
  // Node sets up a recursive watch asynchronously, so the edit is repeated until it is seen.
  const edit = () =>
    writeFileSync(hitPath, JSON.stringify({ ...hit, description: "A ranked result, edited while watching." }));
  edit();
  const repeat = setInterval(edit, 500);
  await waitFor(() => stdout, /wrote 9 files/, 2).finally(() => clearInterval(repeat));
  expect(readFileSync(join(out, "types.ts"), "utf8")).toContain("A ranked result, edited while watching.");

  writeFileSync(hitPath, "{ broken");
  await waitFor(() => stderr, /types\/hit\.json: \(document\): invalid JSON/, 1);
  expect(readFileSync(join(out, "types.ts"), "utf8")).toContain("A ranked result, edited while watching.");
  expect(watcher.exitCode).toBeNull();
});

it("refuses to watch a published schema package (npm:<spec>), which does not change, before fetching it", () => {
  const refused = runCli(["--schema", "npm:@acme/schema@1", "--out", out, "--watch"]);
  expect(refused.stderr.split("\n")[0]).toBe(
    "rcp-gen: --watch watches a folder; npm:@acme/schema@1 is a published package, which does not change",
  );
  expect(refused.status).toBe(2);
});
