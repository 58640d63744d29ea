/**
 * Running npm and the tools a user's project installs, as child processes: packing the two
 * workspaces into tarballs, and commands whose output and exit code the tests read.
 */
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: without the npm_* variables of the `npm test` running
 * this suite, which would otherwise steer the nested npm (its prefix, its workspace, ...).
 */
function userEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== "INIT_CWD"),
  );
}

/** Runs `command` in `cwd` to its end (killed after `timeoutMs`), `env` added to the user's; never rejects. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 120_000,
  env: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...userEnvironment(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: timeoutMs,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => resolve({ status: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

export interface Tarballs {
  runtime: string;
  generator: string;
}

/** `npm pack` of both workspaces into `destination` (built already by `npm test`, so no prepack). */
export async function packWorkspaces(destination: string): Promise<Tarballs> {
  const packed = await run(
    "npm",
    ["pack", "-w", "runtime", "-w", "generator", "--pack-destination", destination, "--ignore-scripts", "--silent"],
    repoRoot,
  );
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  const tarball = (prefix: string) => {
    const name = readdirSync(destination).find((file) => new RegExp(`^${prefix}-\\d+\\.\\d+\\.\\d+\\.tgz$`).test(file));
    if (!name) throw new Error(`npm pack wrote no ${prefix} tarball in ${destination}`);
    return join(destination, name);
  };
  return { runtime: tarball("rcp-gen-runtime"), generator: tarball("rcp-gen") };
}
