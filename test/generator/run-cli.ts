/** Runs the built rcp-gen CLI (generator/dist/cli/main.js, built by `npm run build` before vitest) as a child process. */
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const cli = `${repoRoot}generator/dist/cli/main.js`;

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
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npx tsc -p tsconfig.json\` first`);
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** runCli without blocking, so that independent runs overlap. */
export function runCliAsync(args: readonly string[], cwd = tmpdir()): Promise<CliResult> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npx tsc -p tsconfig.json\` first`);
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { cwd, encoding: "utf8", timeout: 60_000 },
      (_error, stdout, stderr) => done({ status: child.exitCode, stdout, stderr }),
    );
  });
}
