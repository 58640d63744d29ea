/** The command quoted in every generated file's banner: what reproduces the run that wrote it. */
import { normalize, relative, sep } from "node:path";
import { defaultRuntimeEntry } from "@rcp-gen/runtime/codegen-symbols";
import { defaultTargetsAlias } from "../targets/builtin.js";
import { isNpmSchema } from "./schema-location.js";

const posix = (path: string) => path.split(sep).join("/");

/** A path as the user typed it, minus noise (`./schema/` -> `schema`), so banners do not depend on the machine. */
const asTyped = (path: string) => posix(normalize(path)).replace(/(.)\/$/, "$1");

export interface RegenerateFlags {
  schema?: string | undefined;
  out?: string | undefined;
  runtime?: string | undefined;
  config?: string | undefined;
  targets?: readonly string[] | undefined;
  plugins?: readonly string[] | undefined;
  examples?: string | undefined;
  moduleFormat?: "ts" | "js" | undefined;
}

/** The flags that reproduce a run, as quoted in banners; `--runtime` only when it is not the default. */
export function regenerateCommand(flags: RegenerateFlags): string {
  const words: string[] = [];
  if (flags.config !== undefined) words.push("--config", asTyped(flags.config));
  if (flags.schema !== undefined) words.push("--schema", asTyped(flags.schema));
  if (flags.out !== undefined) words.push("--out", asTyped(flags.out));
  if (flags.runtime !== undefined && flags.runtime !== defaultRuntimeEntry) words.push("--runtime", flags.runtime);
  if (flags.targets !== undefined) words.push("--targets", flags.targets.join(","));
  for (const plugin of flags.plugins ?? []) words.push("--plugin", asTyped(plugin));
  if (flags.examples !== undefined) words.push("--examples", asTyped(flags.examples));
  if (flags.moduleFormat !== undefined) words.push("--module-format", flags.moduleFormat);
  return ["npx rcp-gen", ...words.map(shellWord)].join(" ");
}

/** A word quoted for a POSIX shell when it needs it (`my schema` -> `'my schema'`), so the command runs as printed. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A run's settings once flags and the settings file are merged: paths absolute. */
export interface ResolvedSettings {
  readonly schema: string;
  readonly out: string;
  readonly runtime?: string | undefined;
  readonly targets?: readonly string[] | undefined;
  readonly plugins?: readonly string[] | undefined;
  readonly examples?: string | undefined;
  readonly moduleFormat?: "ts" | "js" | undefined;
}

/** The settings file a banner's command leans on: its settings, its folder, and `--config` when it is not found unasked. */
export interface SettingsReference {
  readonly settings: Omit<ResolvedSettings, "schema" | "out"> & {
    schema?: string | undefined;
    out?: string | undefined;
  };
  readonly dir: string;
  readonly configFlag?: string | undefined;
}

/**
 * The banner's command, derived from what the run resolved rather than from how it was typed:
 * flags that repeat the settings file, reordered flags or `./schema` for `schema` all give the
 * same banner, so `--check` agrees with the run that wrote the files however either was called.
 * It names only the settings that differ from the settings file's, paths relative to the
 * file's folder (without a file: relative to `cwd`, every setting named).
 */
export function canonicalCommand(run: ResolvedSettings, reference: SettingsReference | undefined, cwd: string): string {
  const from = reference?.dir ?? cwd;
  const given = reference?.settings ?? {};
  const path = (value: string) => relative(from, value) || ".";
  // A published schema (npm:<spec>) is named as given: it is no path.
  const schemaPath = (value: string) => (isNpmSchema(value) ? value : path(value));
  /** A setting's value when it differs from the settings file's, else undefined (the file says it). */
  const unlessGiven = <T>(value: T | undefined, inFile: T | undefined): T | undefined =>
    JSON.stringify(value) === JSON.stringify(inFile) ? undefined : value;
  const runtime = (value: string | undefined) => (value === defaultRuntimeEntry ? undefined : value);
  const targets = (value: readonly string[] | undefined) =>
    value?.length === 1 && value[0] === defaultTargetsAlias ? undefined : value;
  return regenerateCommand({
    config: reference?.configFlag,
    schema: unlessGiven(schemaPath(run.schema), given.schema && schemaPath(given.schema)),
    out: unlessGiven(path(run.out), given.out && path(given.out)),
    runtime: unlessGiven(runtime(run.runtime), runtime(given.runtime)),
    targets: unlessGiven(targets(run.targets), targets(given.targets)),
    plugins: unlessGiven(run.plugins?.map(path), given.plugins?.map(path)),
    examples: unlessGiven(run.examples && path(run.examples), given.examples && path(given.examples)),
    // Named even as the default ts when the settings file says js.
    moduleFormat: unlessGiven(run.moduleFormat ?? "ts", given.moduleFormat ?? "ts"),
  });
}
