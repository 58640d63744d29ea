/**
 * The generator on the command line (`rcp-gen [options]`, options in generate-command.ts): flags,
 * else the project's settings (config.ts); one run, a check or a watch; and what each prints.
 */
import { watch } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isNpmSchema } from "./schema-location.js";
import { SchemaFolderError } from "../load/schema-folder-error.js";
import { configFileName, ConfigError, display, findConfig, loadConfigFile, type FoundConfig } from "./config.js";
import { renderHunk } from "./drift.js";
import { CommonJsProjectError } from "./esm-only.js";
import type { OutputDifference } from "./output-folder.js";
import { canonicalCommand, type SettingsReference } from "./banner-command.js";
import type { RunOptions, RunReport } from "./run-once.js";
import { resolveTargets, TargetError } from "../targets/builtin.js";
import type { GenerateArguments } from "./generate-command.js";
import { schemaFolderWithoutSettings } from "./schema-setting.js";
import { exitCode, helpHint, UsageError } from "./usage-mistakes.js";

/** Flags win over the settings file; schema and out must come from one or the other. */
function resolveOptions(argv: GenerateArguments, cwd: string): RunOptions {
  const named = argv.config !== undefined ? loadConfigFile(resolve(cwd, argv.config), cwd) : undefined;
  const found = named ?? findConfig(cwd);
  if (found?.warning) console.error(found.warning);
  const setting = (path: string | undefined) => (path === undefined ? undefined : display(cwd, path));
  const schemaSetting = found?.config.schema;
  const schema =
    argv.schema ??
    (schemaSetting !== undefined && isNpmSchema(schemaSetting) ? schemaSetting : setting(schemaSetting)) ??
    display(cwd, schemaFolderWithoutSettings(cwd));
  const out = argv.out ?? setting(found?.config.out);
  const runtime = argv.runtime ?? found?.config.runtime;
  const targets = argv.targets?.split(",").map((name) => name.trim()) ?? found?.config.targets;
  const plugins = argv.plugin ?? found?.config.plugins?.map((path) => display(cwd, path));
  const examples = argv.examples ?? setting(found?.config.examples);
  const moduleFormat = argv["module-format"] ?? found?.config.moduleFormat ?? "ts";
  if (out === undefined) throw missingSetting("--out", "out", found);
  if (targets !== undefined) checkTargets(targets);
  const absolute = (path: string | undefined) => (path === undefined ? undefined : resolve(cwd, path));
  return {
    schema,
    out,
    check: argv.check === true,
    moduleFormat,
    ...(runtime === undefined ? {} : { runtime }),
    ...(targets === undefined ? {} : { targets }),
    ...(plugins === undefined ? {} : { plugins }),
    ...(examples === undefined ? {} : { examples }),
    command: canonicalCommand(
      {
        schema: isNpmSchema(schema) ? schema : resolve(cwd, schema),
        out: resolve(cwd, out),
        runtime,
        targets,
        plugins: plugins?.map((path) => resolve(cwd, path)),
        examples: absolute(examples),
        moduleFormat,
      },
      settingsReference(found, named, cwd),
      cwd,
    ),
  };
}

/**
 * The settings file the banner's command leans on. One named with --config is named again in
 * the command, unless it is the file rcp-gen would find anyway.
 */
function settingsReference(
  found: FoundConfig | undefined,
  named: FoundConfig | undefined,
  cwd: string,
): SettingsReference | undefined {
  if (found === undefined) return undefined;
  if (named !== undefined && foundUnasked(cwd)?.path !== named.path)
    return { settings: named.config, dir: cwd, configFlag: display(cwd, named.path) };
  return { settings: found.config, dir: dirname(found.path) };
}

/** The settings rcp-gen finds without --config; a broken file there is no concern of a run that names another. */
function foundUnasked(cwd: string): FoundConfig | undefined {
  try {
    return findConfig(cwd);
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

/** An unknown target is a usage mistake, told before any work. */
function checkTargets(targets: readonly string[]): void {
  try {
    resolveTargets(targets);
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    throw new UsageError(error.message);
  }
}

function missingSetting(flag: string, key: string, found: FoundConfig | undefined): UsageError {
  const where = found
    ? `${found.file} sets no "${found.keyPrefix === "" ? key : `${found.keyPrefix}.${key}`}"`
    : `no ${configFileName} or "rcp-gen" key in package.json here or above`;
  return new UsageError(
    `no ${flag} given, and ${where}`,
    `rcp-gen --schema <dir> --out <dir>, or rcp-gen init to start a project with its settings; ${helpHint(undefined)}`,
  );
}

function describeFailure(error: unknown, options: RunOptions): string[] {
  if (error instanceof SchemaFolderError) {
    const lines = error.problems.map(({ file, pointer, problem }) => {
      const path = isAbsolute(file) || isNpmSchema(file) ? file : join(options.schema, file);
      return `rcp-gen: ${path}: ${pointer || "(document)"}: ${problem}`;
    });
    const count = error.problems.length;
    return count > 1 ? [...lines, `rcp-gen: ${count} problems in ${options.schema}; nothing was written`] : lines;
  }
  if (error instanceof CommonJsProjectError) return [`rcp-gen: ${error.message}`, `fix: ${error.fix}`];
  return [`rcp-gen: ${error instanceof Error ? error.message : String(error)}`];
}

function describeDrift(options: RunOptions, differences: readonly OutputDifference[]): string[] {
  const lines = [`rcp-gen: ${options.out} differs from what ${options.schema} generates:`];
  for (const difference of differences) {
    const runtimeOnly = difference.runtimeImport;
    const note = difference.bannerCommand
      ? " (only the command in its banner)"
      : !runtimeOnly
        ? ""
        : runtimeOnly.onDisk !== runtimeOnly.generated
          ? " (only its runtime import)"
          : " (only the --runtime in its banner)";
    lines.push(`  ${difference.state}: ${join(options.out, difference.file)}${note}`);
    if (difference.hunk) lines.push(...renderHunk(difference.hunk, "    "));
  }
  const banners = differences.map((difference) => difference.bannerCommand);
  if (banners.every((banner) => banner !== undefined)) {
    const { onDisk, generated } = banners[0]!;
    lines.push(
      `rcp-gen: only the banners' regenerate command differs: ${options.out} says "${onDisk}", this run "${generated}"; ` +
        `the code is the same, regenerate to update the banners`,
    );
  }
  const named = differences.find(
    (difference) =>
      difference.runtimeImport?.onDisk &&
      difference.runtimeImport.generated &&
      difference.runtimeImport.onDisk !== difference.runtimeImport.generated,
  );
  if (named?.runtimeImport && differences.every((difference) => difference.runtimeImport || difference.bannerCommand)) {
    const { onDisk, generated } = named.runtimeImport;
    lines.push(
      `rcp-gen: only the runtime import differs: ${options.out} imports "${onDisk}", this run "${generated}"; ` +
        `keep the former with --runtime ${onDisk} (or "runtime" in ${configFileName}), or regenerate to switch`,
    );
  }
  return lines;
}

function report(result: RunReport, options: RunOptions, quiet: boolean): number {
  const time = `${Math.round(result.milliseconds)} ms`;
  if (result.kind === "checked") {
    if (result.differences.length === 0) {
      if (!quiet) console.log(`rcp-gen: ${options.out} is up to date (${time})`);
      return exitCode.ok;
    }
    for (const line of describeDrift(options, result.differences)) console.error(line);
    console.error(`rcp-gen: run \`${options.command}\` to regenerate`);
    return exitCode.drift;
  }
  if (!quiet) {
    for (const file of result.files) console.log(`  ${join(options.out, file.name)} (${file.bytes} bytes)`);
    console.log(
      `rcp-gen: wrote ${result.files.length} files for ${result.methods} methods and ${result.notifications} notifications in ${time}`,
    );
  }
  return exitCode.ok;
}

async function runReporting(options: RunOptions, quiet: boolean): Promise<number> {
  try {
    // Loaded here, not at start-up: usage mistakes and --help need none of the generator.
    const { runOnce } = await import("./run-once.js");
    return report(await runOnce(options), options, quiet);
  } catch (error) {
    for (const line of describeFailure(error, options)) console.error(line);
    return exitCode.error;
  }
}

function watchSchema(options: RunOptions, quiet: boolean): void {
  if (!quiet) console.log(`rcp-gen: watching ${options.schema} for changes`);
  let pending: NodeJS.Timeout | undefined;
  // Runs never overlap: a change during a run is handled after that run ends.
  let running: Promise<unknown> = Promise.resolve();
  watch(options.schema, { recursive: true }, () => {
    // Editors write in bursts; one run per burst.
    clearTimeout(pending);
    pending = setTimeout(() => {
      running = running.then(() => runReporting(options, quiet));
    }, 25);
  });
}

/** Runs `rcp-gen [generate]` as parsed by yargs (main.ts); resolves to the exit code, after which --watch goes on watching. */
export async function generateFromCommandLine(argv: GenerateArguments): Promise<number> {
  let options: RunOptions;
  try {
    options = resolveOptions(argv, process.cwd());
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`rcp-gen: ${error.message}`);
    return exitCode.error;
  }
  const quiet = argv.quiet === true;
  if (argv.watch && isNpmSchema(options.schema))
    throw new UsageError(`--watch watches a folder; ${options.schema} is a published package, which does not change`);
  const status = await runReporting(options, quiet);
  if (argv.watch) watchSchema(options, quiet);
  return status;
}
