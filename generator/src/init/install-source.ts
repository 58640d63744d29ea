/**
 * Where this rcp-gen and its runtime were installed from, so that the project `rcp-gen init`
 * makes installs the same packages: the registry (the scaffold names the version, as usual),
 * or files, a tarball such as `npm install ./rcp-gen-0.2.0.tgz` (the registry may not have the
 * version at all), whose paths the scaffold's package.json then names as `file:` specs. npm
 * records each package's source in the hidden lockfile of the node_modules it installed into.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { packageFolder } from "../shipped.js";
import type { ScaffoldPackage } from "./manifest.js";

/** The packages a scaffold depends on that came from files: package name to absolute path. */
export type FileSources = Readonly<Partial<Record<ScaffoldPackage, string>>>;

interface HiddenLockfile {
  packages?: Record<string, { resolved?: string } | undefined>;
}

export function fileSources(folder = packageFolder()): FileSources {
  const nodeModules = dirname(resolve(folder));
  const lockfile = join(nodeModules, ".package-lock.json");
  if (basename(nodeModules) !== "node_modules" || basename(resolve(folder)) !== "rcp-gen" || !existsSync(lockfile))
    return {};
  let lock: HiddenLockfile;
  try {
    lock = JSON.parse(readFileSync(lockfile, "utf8")) as HiddenLockfile;
  } catch {
    return {};
  }
  const sources: Partial<Record<ScaffoldPackage, string>> = {};
  for (const name of ["rcp-gen", "@rcp-gen/runtime"] as const) {
    const resolved = lock.packages?.[`node_modules/${name}`]?.resolved;
    // file: specs in the lockfile are relative to the folder holding node_modules.
    if (resolved?.startsWith("file:")) sources[name] = resolve(dirname(nodeModules), resolved.slice("file:".length));
  }
  return sources;
}
