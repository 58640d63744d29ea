/**
 * Scenario 8: what a server-only app installs in production. A project made by `rcp-gen init`,
 * its two packages pointed at tarballs packed from this checkout (they are not on the registry
 * yet; npm resolves dev dependencies too, even with --omit=dev), installed with
 * `npm install --omit=dev` from npm's cache: the packages and megabytes in its node_modules.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScenarioReport } from "../report.js";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const cli = join(repoRoot, "generator", "dist", "cli", "main.js");

function mustRun(command: string, args: readonly string[], cwd: string): string {
  // The npm_* variables of an `npm run bench` would steer the nested npm (prefix, workspace, ...).
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const ran = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 300_000 });
  if (ran.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${ran.stderr || ran.error?.message}`);
  return ran.stdout;
}

/** Installed packages: every folder with a package.json directly in a node_modules, at any depth. */
function countPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules).flatMap((entry) => {
    if (entry.startsWith(".")) return [];
    const path = join(nodeModules, entry);
    const folders = entry.startsWith("@") ? readdirSync(path).map((scoped) => join(path, scoped)) : [path];
    return folders.flatMap((folder) =>
      existsSync(join(folder, "package.json"))
        ? [folder.slice(nodeModules.length + 1), ...countPackages(join(folder, "node_modules"))]
        : [],
    );
  });
}

function bytesBelow(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((total, entry) => total + bytesBelow(join(path, entry)), 0);
}

export function installScenario(): ScenarioReport {
  if (!existsSync(cli)) throw new Error(`${cli} not built yet`);
  const work = mkdtempSync(join(tmpdir(), "rcp-bench-install-"));
  try {
    mustRun(
      "npm",
      ["pack", "-w", "runtime", "-w", "generator", "--pack-destination", work, "--ignore-scripts", "--silent"],
      repoRoot,
    );
    const tarball = (prefix: string) =>
      join(
        work,
        readdirSync(work).find((name) => new RegExp(`^${prefix}-\\d`).test(name))!,
      );
    const app = join(work, "app");
    mustRun(process.execPath, [cli, "init", app], work);
    const manifestPath = join(app, "package.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    manifest.dependencies["@rcp-gen/runtime"] = `file:${tarball("rcp-gen-runtime")}`;
    manifest.devDependencies["rcp-gen"] = `file:${tarball("rcp-gen")}`;
    writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
    const started = Date.now();
    mustRun("npm", ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], app);
    const seconds = (Date.now() - started) / 1000;
    const nodeModules = join(app, "node_modules");
    const packages = countPackages(nodeModules);
    const megabytes = bytesBelow(nodeModules) / 1e6;
    return {
      id: "8",
      title: "production install of a server-only app: npm install --omit=dev of an rcp-gen init project",
      rows: [
        { label: "rcp-gen init project", metrics: { packages: packages.length, megabytes, installSeconds: seconds } },
      ],
      targets: [
        { name: "packages in node_modules", measured: packages.length, threshold: 3, kind: "max", unit: "" },
        { name: "MB in node_modules", measured: megabytes, threshold: 3, kind: "max", unit: " MB" },
      ],
      notes: [
        `installed: ${packages.sort().join(", ")}`,
        "MB: bytes of every file below node_modules / 1e6 (apparent size, not disk blocks)",
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
