/**
 * The package.json of a project `rcp-gen init` makes: ESM, the runtime as its one production
 * dependency and rcp-gen at this version as a development one (generated code and the runtime
 * go in lockstep), and the scripts its README lists.
 */

/**
 * The tools a scaffold builds and tests with, at the versions this repository tests the
 * scaffold with (test/package checks they match its own devDependencies). vite is vitest's
 * peer, pinned so an install never picks an untested one.
 */
export const scaffoldTools: Readonly<Record<string, string>> = {
  "@types/node": "20.19.43",
  typescript: "7.0.2",
  vite: "8.3.8",
  vitest: "4.1.12",
};

/** The packages of rcp-gen a scaffold depends on. */
export type ScaffoldPackage = "rcp-gen" | "@rcp-gen/runtime";

/** An npm package name from a folder name: lower case, other characters as dashes. */
export function packageNameFor(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name === "" ? "rcp-engine" : name.slice(0, 214);
}

/** What `rcp-gen init --template` offers: `plain` (the default) or an engine over an Orama store. */
export const initTemplates = ["plain", "orama"] as const;
export type InitTemplate = (typeof initTemplates)[number];

/**
 * The production dependencies a template adds beside the runtime, at the versions this
 * repository tests the template with (test/package checks they match its devDependencies).
 */
export const templateDependencies: Readonly<Record<InitTemplate, Readonly<Record<string, string>>>> = {
  plain: {},
  orama: { "@orama/orama": "3.1.18" },
};

/**
 * `specs` replaces the version of the packages that did not come from the registry (`file:`
 * specs, install-source.ts).
 */
export function scaffoldManifest(
  name: string,
  rcpGenVersion: string,
  template: InitTemplate = "plain",
  specs: Readonly<Partial<Record<ScaffoldPackage, string>>> = {},
): object {
  return {
    name,
    version: "0.1.0",
    private: true,
    description: "An RCP/1 engine whose protocol code rcp-gen generates from schema/",
    type: "module",
    engines: { node: ">=20.19" },
    scripts: {
      generate: "rcp-gen",
      check: "rcp-gen --check",
      build: "rcp-gen --quiet && tsc",
      start: "npm run -s build && node dist/client.js",
      serve: "npm run -s build && node dist/server.js",
      // Regenerates, rebuilds and serves again on every change (src/dev.ts).
      dev: "npm run -s build && node --watch-path=schema --watch-path=src --watch-preserve-output dist/dev.js",
      // The conformance test (describeConformance) starts the built server, dist/server.js.
      test: "npm run -s build && vitest run",
      lint: "rcp-gen lint",
      breaking: "rcp-gen breaking --against origin/main",
    },
    dependencies: { "@rcp-gen/runtime": specs["@rcp-gen/runtime"] ?? rcpGenVersion, ...templateDependencies[template] },
    devDependencies: { "rcp-gen": specs["rcp-gen"] ?? rcpGenVersion, ...scaffoldTools },
  };
}

/**
 * The package.json of a schema package (`rcp-gen init --schema-package <name>`): the schema
 * folder as what it publishes (`files`) and exports, and the "rcp-gen" key naming it, which
 * `--schema npm:<name>` reads to find the folder in the package.
 */
export function schemaPackageManifest(name: string): object {
  return {
    name,
    version: "1.0.0",
    description: "An RCP schema folder, for rcp-gen --schema npm:" + name,
    keywords: ["rcp", "rcp-schema", "json-schema"],
    files: ["schema"],
    exports: { "./schema/*": "./schema/*", "./package.json": "./package.json" },
    "rcp-gen": { schema: "schema" },
  };
}
