/**
 * Where the files rcp-gen ships beside its code are: the RCP/1 schema folder (copied from the
 * repository's schema/ by scripts/copy-shipped.js when the package is built, never kept by
 * hand) and the templates of `rcp-gen init` (the orama one's src/orama/ copied likewise from
 * docs/examples/orama-engine/orama). Whatever needs "the RCP/1 schema that ships with
 * rcp-gen" asks here.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The package folder: this module is dist/shipped.js (src/shipped.ts in the repository's tests). */
const packageRoot = new URL("../", import.meta.url);

/** This rcp-gen's package folder (node_modules/rcp-gen in a project that installed it). */
export function packageFolder(): string {
  return fileURLToPath(packageRoot);
}

/** The RCP/1 schema folder this version of rcp-gen ships, generates and scaffolds with. */
export function rcpSchemaDir(): string {
  return shippedFolder("schema", "the RCP/1 schema");
}

/** The files `rcp-gen init` copies into a new project (package.json is written apart). */
export function initTemplateDir(): string {
  return shippedFolder("templates/init", "the init templates");
}

/** The files `rcp-gen init --template <name>` copies over those of initTemplateDir(). */
export function templateOverlayDir(name: string): string {
  return shippedFolder(`templates/${name}`, `the ${name} template`);
}

function shippedFolder(path: string, what: string): string {
  const folder = fileURLToPath(new URL(path, packageRoot));
  if (!existsSync(folder)) throw new Error(`${what} should ship at ${folder}; build rcp-gen (npm run build) first`);
  return folder;
}
