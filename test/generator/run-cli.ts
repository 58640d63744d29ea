/** Runs the rcp-gen CLI as a child process: built (generator/dist), or from its sources in the fast tier (../fixtures/entry.ts). */
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { entryPath } from "../fixtures/entry.js";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** The CLI's entry file, started with `node`. */
export const cliEntry = entryPath("generator/src/cli/main.ts");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs from `cwd`, by default a folder outside the repository: the repository's package.json
 * has "rcp-gen" settings (the docs targets) that a run from its root would pick up.
 */
export function runCli(args: readonly string[], cwd = tmpdir()): CliResult {
  if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run \`npm run build\` first`);
  const result = spawnSync(process.execPath, [cliEntry, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** runCli without blocking, so that independent runs overlap. */
export function runCliAsync(args: readonly string[], cwd = tmpdir()): Promise<CliResult> {
  if (!existsSync(cliEntry)) throw new Error(`${cliEntry} is missing: run \`npm run build\` first`);
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [cliEntry, ...args],
      { cwd, encoding: "utf8", timeout: 60_000 },
      (_error, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
    );
  });
}
