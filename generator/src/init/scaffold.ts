/**
 * `rcp-gen init`: a working engine project in one folder, from the shipped RCP/1 schema, the
 * templates and a package.json, with its code generated, so that `npm install && npm start`
 * runs it and `npm run check` finds the generated code up to date.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { runOnce, type RunReport } from "../cli/run-once.js";
import { generatorVersion } from "../cli/version.js";
import { initTemplateDir, rcpSchemaDir, templateOverlayDir } from "../shipped.js";
import { fileSources } from "./install-source.js";
import { packageNameFor, scaffoldManifest, schemaPackageManifest, type InitTemplate } from "./manifest.js";

export class ScaffoldRefused extends Error {
  override name = "ScaffoldRefused";
}

/** The project `scaffoldProject` made. */
export interface Scaffolded {
  /** Absolute path of the project folder. */
  readonly dir: string;
  /** Its top-level entries. */
  readonly entries: readonly string[];
  /** The generator's run, for an engine project (a schema package has no generated code). */
  readonly generation?: RunReport;
  /** The `file:` specs its package.json names, for the packages this rcp-gen was installed with from files. */
  readonly fileSpecs?: Readonly<Record<string, string>>;
}

/** npm leaves `.gitignore` out of published packages, so the template ships it without the dot. */
const renamedOnCopy: Readonly<Record<string, string>> = { gitignore: ".gitignore" };

/** What `rcp-gen init` does: writes a working engine project into `dir`, its code generated. */
export async function scaffoldProject(
  dir: string,
  options: { force: boolean; template?: InitTemplate },
): Promise<Scaffolded> {
  const template = options.template ?? "plain";
  const target = resolve(dir);
  refuseOccupied(target, options.force);
  mkdirSync(target, { recursive: true });
  cpSync(rcpSchemaDir(), join(target, "schema"), { recursive: true });
  // Over the RCP/1 schema: adds the example vendor method, besides the project's files.
  cpSync(initTemplateDir(), target, { recursive: true });
  for (const [shipped, name] of Object.entries(renamedOnCopy)) renameSync(join(target, shipped), join(target, name));
  // A template other than the plain one replaces the plain engine (src/engine.ts) and adds its own files.
  if (template !== "plain") cpSync(templateOverlayDir(template), target, { recursive: true });
  const fileSpecs = Object.fromEntries(
    Object.entries(fileSources()).map(([name, path]) => [name, `file:${relative(target, path).split(sep).join("/")}`]),
  );
  const manifest = scaffoldManifest(packageNameFor(basename(target)), generatorVersion, template, fileSpecs);
  writeFileSync(join(target, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // The same run as `npm run generate` (rcp-gen.config.json), so `npm run check` agrees with it.
  const generation = await runOnce({
    schema: join(target, "schema"),
    out: join(target, "src", "generated"),
    check: false,
    command: "npx rcp-gen",
  });
  return { dir: target, entries: readdirSync(target).sort(), generation, fileSpecs };
}

/**
 * What `rcp-gen init --schema-package <name>` does: writes a publishable package holding the
 * RCP/1 schema folder, for engines and clients to generate from with `--schema npm:<name>`.
 */
export function scaffoldSchemaPackage(dir: string, options: { force: boolean; name: string }): Scaffolded {
  const target = resolve(dir);
  refuseOccupied(target, options.force);
  mkdirSync(target, { recursive: true });
  cpSync(rcpSchemaDir(), join(target, "schema"), { recursive: true });
  writeFileSync(join(target, "package.json"), `${JSON.stringify(schemaPackageManifest(options.name), null, 2)}\n`);
  writeFileSync(join(target, "README.md"), schemaPackageReadme(options.name));
  return { dir: target, entries: readdirSync(target).sort() };
}

function schemaPackageReadme(name: string): string {
  return `# ${name}

An RCP schema folder (\`schema/\`), published so that engines and clients generate from the same
protocol: \`npx rcp-gen --schema npm:${name}@1 --out src/generated\`, and in CI
\`npx rcp-gen breaking --schema schema --against npm:${name}@latest\` before \`npm publish\`.

Edit \`schema/\` (a method is a file under \`schema/methods/\`), check it with \`npx rcp-gen lint --schema schema\`,
raise the major version when \`rcp-gen breaking\` reports a break, then \`npm publish\`.
`;
}

function refuseOccupied(target: string, force: boolean): void {
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory()) throw new ScaffoldRefused(`${target} exists and is not a folder`);
  const present = readdirSync(target);
  if (present.length > 0 && !force) {
    const listed = present.slice(0, 5).join(", ") + (present.length > 5 ? `, … (${present.length} entries)` : "");
    throw new ScaffoldRefused(`${target} is not empty (it holds ${listed})`);
  }
}
