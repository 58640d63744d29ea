/** Type-checks a folder of TypeScript against the project's strict compiler options with a real `tsc` run. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./run-cli.js";

export interface TypecheckResult {
  status: number | null;
  output: string;
}

/** A temp folder under the repository's .tmp/, so relative imports of runtime and generated code work. */
export function scratchFolder(prefix: string): string {
  mkdirSync(join(repoRoot, ".tmp"), { recursive: true });
  return mkdtempSync(join(repoRoot, ".tmp", prefix));
}

/** Runs tsc on every .ts file under `dir` (which must sit two levels below the repository root). */
export function typecheck(dir: string): TypecheckResult {
  const base = relative(dir, join(repoRoot, "tsconfig.json"));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: base,
      compilerOptions: { noEmit: true, rootDir: relative(dir, repoRoot) },
      include: ["**/*.ts"],
    }),
  );
  const tsc = join(repoRoot, "node_modules", ".bin", "tsc");
  const result = spawnSync(tsc, ["-p", join(dir, "tsconfig.json")], { encoding: "utf8", timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
