/**
 * The settings a project keeps for `rcp-gen`, so `npx rcp-gen` and `npx rcp-gen --check` need
 * no flags: `rcp-gen.config.json`, or an `"rcp-gen"` key in package.json.
 *
 * Where: from the current folder upwards, the first folder holding either file. There
 * rcp-gen.config.json wins over the package.json key (a warning names the one ignored); a
 * folder with a package.json and neither is a project without settings, and the search ends.
 * Paths in the settings are relative to the folder holding them.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { isNpmSchema } from "./schema-location.js";

export const configFileName = "rcp-gen.config.json";
export const packageJsonKey = "rcp-gen";

/** The settings a config may hold; flags on the command line override each one. */
export interface RcpGenConfig {
  /** The schema folder. */
  schema?: string;
  /** The output folder. */
  out?: string;
  /** Import specifier of the runtime entry for generated code. */
  runtime?: string;
  /** Built-in targets to generate (`default` for the TypeScript modules and the bundle). */
  targets?: string[];
  /** ESM modules whose default export is an rcp-gen plugin. */
  plugins?: string[];
  /** A folder of examples for the docs targets (`<shape>/<name>.json`, as test/schema/fixtures/valid). */
  examples?: string;
  /** The modules generated: TypeScript (`ts`, the default) or JavaScript with declarations (`js`). */
  moduleFormat?: "ts" | "js";
  /** `rcp-gen lint`'s rules by id, each off, warn or error (the command checks the ids). */
  lint?: Record<string, "off" | "warn" | "error">;
  /** `rcp-gen conform`'s settings: `query`, the query of its retrieval probes. */
  conform?: { query?: string };
}

/** Each key a config may hold and its check. */
const keyChecks: Readonly<Record<keyof RcpGenConfig, (value: unknown) => string | undefined>> = {
  schema: nonEmptyString,
  out: nonEmptyString,
  runtime: nonEmptyString,
  targets: nonEmptyStrings,
  plugins: nonEmptyStrings,
  examples: nonEmptyString,
  moduleFormat: moduleFormat,
  lint: ruleLevels,
  conform: conformSettings,
};

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== ""
    ? undefined
    : `must be a non-empty string (got ${JSON.stringify(value)})`;
}

function nonEmptyStrings(value: unknown): string | undefined {
  return Array.isArray(value) && value.length > 0 && value.every((item) => nonEmptyString(item) === undefined)
    ? undefined
    : `must be a non-empty list of non-empty strings (got ${JSON.stringify(value)})`;
}

function moduleFormat(value: unknown): string | undefined {
  return value === "ts" || value === "js" ? undefined : `must be "ts" or "js" (got ${JSON.stringify(value)})`;
}

function ruleLevels(value: unknown): string | undefined {
  return isRecord(value) &&
    Object.values(value).every((level) => level === "off" || level === "warn" || level === "error")
    ? undefined
    : `must map rule ids to "off", "warn" or "error" (got ${JSON.stringify(value)})`;
}

function conformSettings(value: unknown): string | undefined {
  if (!isRecord(value)) return `must be an object (got ${JSON.stringify(value)})`;
  const unknown = Object.keys(value).find((key) => key !== "query");
  if (unknown !== undefined) return `unknown key ${unknown} (allowed: query)`;
  const problem = value.query === undefined ? undefined : nonEmptyString(value.query);
  return problem === undefined ? undefined : `query ${problem}`;
}

/** A config that cannot be used, located by file and key. */
export class ConfigError extends Error {
  override name = "ConfigError";
  constructor(
    readonly file: string,
    readonly key: string,
    readonly problem: string,
  ) {
    super(`${file}: ${key === "" ? "" : `${key}: `}${problem}`);
  }
}

export interface FoundConfig {
  /** The file the settings come from, as the user would name it (relative to the current folder). */
  readonly file: string;
  /** That file's absolute path. */
  readonly path: string;
  /** Where `"rcp-gen"` sits in that file: "" for rcp-gen.config.json, "rcp-gen" in package.json. */
  readonly keyPrefix: string;
  /** The settings, with paths resolved against the file's folder. */
  readonly config: RcpGenConfig;
  /** A line for stderr when a second source was ignored. */
  readonly warning?: string;
}

/** The settings that apply in `cwd`, or undefined when there are none. */
export function findConfig(cwd: string): FoundConfig | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const configFile = join(dir, configFileName);
    const packageFile = join(dir, "package.json");
    const manifest = existsSync(packageFile) ? readJson(packageFile, cwd) : undefined;
    const inPackage = isRecord(manifest) && Object.hasOwn(manifest, packageJsonKey);
    if (existsSync(configFile)) {
      const warning = inPackage
        ? `rcp-gen: using ${display(cwd, configFile)}; the "${packageJsonKey}" key of ${display(cwd, packageFile)} is ignored`
        : undefined;
      return { ...loadConfigFile(configFile, cwd), ...(warning ? { warning } : {}) };
    }
    if (manifest !== undefined) {
      if (!isRecord(manifest) || !inPackage) return undefined;
      const file = display(cwd, packageFile);
      return {
        file,
        path: packageFile,
        keyPrefix: packageJsonKey,
        config: checkConfig(manifest[packageJsonKey], file, packageJsonKey, dir),
      };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The settings in an rcp-gen.config.json named explicitly (`--config`). */
export function loadConfigFile(path: string, cwd: string): FoundConfig {
  const file = display(cwd, path);
  if (!existsSync(path)) throw new ConfigError(file, "", "no such file");
  return {
    file,
    path: resolve(path),
    keyPrefix: "",
    config: checkConfig(readJson(path, cwd), file, "", dirname(resolve(path))),
  };
}

function checkConfig(value: unknown, file: string, prefix: string, base: string): RcpGenConfig {
  const where = (key: string) => (prefix === "" ? key : `${prefix}.${key}`);
  if (!isRecord(value)) throw new ConfigError(file, prefix, `must be an object (got ${JSON.stringify(value)})`);
  for (const [key, setting] of Object.entries(value)) {
    const check = Object.hasOwn(keyChecks, key) ? keyChecks[key as keyof RcpGenConfig] : undefined;
    if (check === undefined)
      throw new ConfigError(file, where(key), `unknown key (allowed: ${Object.keys(keyChecks).join(", ")})`);
    const problem = check(setting);
    if (problem !== undefined) throw new ConfigError(file, where(key), problem);
  }
  // Every value passed its check above.
  const { schema, out, runtime, targets, plugins, examples, moduleFormat, lint, conform } = value as RcpGenConfig;
  return {
    ...(schema === undefined ? {} : { schema: isNpmSchema(schema) ? schema : resolve(base, schema) }),
    ...(out === undefined ? {} : { out: resolve(base, out) }),
    // An import specifier, not a path: a relative one is relative to the output folder.
    ...(runtime === undefined ? {} : { runtime }),
    ...(targets === undefined ? {} : { targets }),
    ...(plugins === undefined ? {} : { plugins: plugins.map((plugin) => resolve(base, plugin)) }),
    ...(examples === undefined ? {} : { examples: resolve(base, examples) }),
    ...(moduleFormat === undefined ? {} : { moduleFormat }),
    ...(lint === undefined ? {} : { lint }),
    ...(conform === undefined ? {} : { conform }),
  };
}

function readJson(path: string, cwd: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigError(display(cwd, path), "", `not valid JSON: ${(error as Error).message}`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A path as a person in `cwd` would type it. */
export function display(cwd: string, path: string): string {
  return relative(cwd, path) || ".";
}
