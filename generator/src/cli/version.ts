/**
 * The generator's version, written into every generated file's banner. Read from the
 * package's package.json at run time: importing it would make tsc copy a package.json into
 * dist/, which would then shadow the real one for everything under dist/.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function packageVersion(from: string): string {
  const candidate = join(from, "package.json");
  if (existsSync(candidate)) {
    const manifest = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
    if (manifest.name === "rcp-gen" && manifest.version) return manifest.version;
  }
  const parent = dirname(from);
  if (parent === from) throw new Error("rcp-gen cannot find its own package.json");
  return packageVersion(parent);
}

export const generatorVersion: string = packageVersion(dirname(fileURLToPath(import.meta.url)));
