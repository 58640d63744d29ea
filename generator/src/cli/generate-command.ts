/**
 * The generator on the command line (`rcp-gen [options]`): flags, else the project's settings
 * (config.ts); one run, a check or a watch; and what each prints.
 */
import { watch } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { SchemaFolderError } from "../load/schema-folder-error.js";
import { subCommands } from "./commands.js";
import { configFileName, ConfigError, display, findConfig, loadConfigFile, type FoundConfig } from "./config.js";
import { renderHunk } from "./drift.js";
import { CommonJsProjectError } from "./esm-only.js";
import type { OutputDifference } from "./output-folder.js";
import { regenerateCommand } from "./regenerate-command.js";
import type { RunOptions, RunReport } from "./run.js";
import { builtinTargets, defaultTargetsAlias, resolveTargets, TargetError } from "../plugin/targets.js";
import { commandLine, exitCode, UsageError, type Command } from "./usage.js";
import { generatorVersion } from "./version.js";

const helpHint = `rcp-gen --help lists every option and command (${Object.keys(subCommands).join(", ")})`;

function parseArguments(args: readonly string[]) {
  const commands = Object.values(subCommands).map((sub) => `  rcp-gen ${sub.usage.padEnd(12)} ${sub.summary}`);
  return commandLine(args, helpHint)
    .scriptName("rcp-gen")
    .usage(
      [
        "$0 [--schema <dir>] [--out <dir>] [options]",
        "",
        "Generates types.ts, validators.ts, methods.ts, server.ts, client.ts, node.ts, index.ts and rcp.schema.json from an RCP schema folder (or the --targets chosen), plus what each --plugin makes.",
        `Flags may be left out when ${configFileName} (or an "rcp-gen" key in package.json) sets them.`,
        "",
        "Commands:",
        ...commands,
      ].join("\n"),
    )
    .option("schema", {
      type: "string",
      requiresArg: true,
      describe: "The schema folder (protocol.json, methods/, ...)",
    })
    .option("out", {
      type: "string",
      requiresArg: true,
      describe: "The output folder; replaced as a whole, only ever holds generated files",
    })
    .option("runtime", {
      type: "string",
      requiresArg: true,
      describe:
        "Import path of the runtime entry for generated code (default: @rcp-gen/runtime/codegen); the protocol descriptor, client and Node-only code import the entries beside it with -protocol, -client and -node suffixes",
    })
    .option("config", {
      type: "string",
      requiresArg: true,
      describe: `Read settings from this file instead of looking for ${configFileName} or package.json's "rcp-gen" key`,
    })
    .option("targets", {
      type: "string",
      requiresArg: true,
      describe: `Comma-separated built-in targets: ${[defaultTargetsAlias, ...builtinTargets.map((target) => target.name)].join(", ")} (default: ${defaultTargetsAlias}, the TypeScript modules and rcp.schema.json); a target's requirements come with it`,
    })
    .option("plugin", {
      type: "string",
      array: true,
      nargs: 1,
      requiresArg: true,
      describe: "An ESM module whose default export is an rcp-gen plugin (definePlugin from rcp-gen); repeatable",
    })
    .option("examples", {
      type: "string",
      requiresArg: true,
      describe:
        "A folder of example values for the docs targets: <shape>/<name>.json, e.g. methods.retrieve.params/basic.json",
    })
    .option("check", {
      type: "boolean",
      describe: "Write nothing; exit 1 showing how each file differs from what would be generated",
    })
    .option("watch", { type: "boolean", describe: "Regenerate whenever a file in the schema folder changes" })
    .option("quiet", { type: "boolean", default: false, describe: "Print only errors and drift" })
    .conflicts("check", "watch")
    .example("$0 --schema schema --out generated", "Generate into generated/, importing @rcp-gen/runtime")
    .example("$0", `Generate as ${configFileName} says: { "schema": "schema", "out": "src/generated" }`)
    .example(
      "$0 --schema schema --out src/rcp --runtime ./vendor/rcp-runtime/codegen.js",
      "Generate against a runtime at another import path",
    )
    .example("$0 --targets default,openrpc,markdown", "Also write openrpc.json and a Markdown page per method")
    .example("$0 --plugin ./method-table.js", "Also write what a plugin of your own makes")
    .example("$0 --check", "Fail (exit 1) when the output is stale, e.g. in CI")
    .example("$0 --watch", "Regenerate on every schema change")
    .epilogue(
      "Exit codes: 0 success, 1 --check found drift, 2 a usage mistake, an invalid schema folder or config, or unwritable output.",
    )
    .version(generatorVersion)
    .strict()
    .parseAsync();
}

type Arguments = Awaited<ReturnType<typeof parseArguments>>;

/** Flags win over the settings file; schema and out must come from one or the other. */
function resolveOptions(argv: Arguments, cwd: string): RunOptions {
  const found = argv.config !== undefined ? loadConfigFile(resolve(cwd, argv.config), cwd) : findConfig(cwd);
  if (found?.warning) console.error(found.warning);
  const setting = (path: string | undefined) => (path === undefined ? undefined : display(cwd, path));
  const schema = argv.schema ?? setting(found?.config.schema);
  const out = argv.out ?? setting(found?.config.out);
  const runtime = argv.runtime ?? found?.config.runtime;
  const targetFlag = argv.targets?.split(",").map((name) => name.trim());
  const targets = targetFlag ?? found?.config.targets;
  const plugins = argv.plugin ?? found?.config.plugins?.map((path) => display(cwd, path));
  const examples = argv.examples ?? setting(found?.config.examples);
  if (schema === undefined) throw missingSetting("--schema", "schema", found);
  if (out === undefined) throw missingSetting("--out", "out", found);
  if (targets !== undefined) checkTargets(targets);
  return {
    schema,
    out,
    check: argv.check === true,
    ...(runtime === undefined ? {} : { runtime }),
    ...(targets === undefined ? {} : { targets }),
    ...(plugins === undefined ? {} : { plugins }),
    ...(examples === undefined ? {} : { examples }),
    // The banner quotes what reproduces this run: the flags given, the settings file doing the rest.
    command: regenerateCommand({
      config: argv.config,
      schema: argv.schema,
      out: argv.out,
      runtime: argv.runtime,
      targets: targetFlag,
      plugins: argv.plugin,
      examples: argv.examples,
    }),
  };
}

/** An unknown target is a usage mistake, told before any work. */
function checkTargets(targets: readonly string[]): void {
  try {
    resolveTargets(targets);
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    throw new UsageError(error.message, helpHint);
  }
}

function missingSetting(flag: string, key: string, found: FoundConfig | undefined): UsageError {
  const where = found
    ? `${found.file} sets no "${found.keyPrefix === "" ? key : `${found.keyPrefix}.${key}`}"`
    : `no ${configFileName} or "rcp-gen" key in package.json here or above`;
  return new UsageError(
    `no ${flag} given, and ${where}`,
    `rcp-gen --schema <dir> --out <dir>, or rcp-gen init to start a project with its settings; ${helpHint}`,
  );
}

function describeFailure(error: unknown, options: RunOptions): string[] {
  if (error instanceof SchemaFolderError) {
    const lines = error.problems.map(({ file, pointer, problem }) => {
      const path = isAbsolute(file) ? file : join(options.schema, file);
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
    const note = !runtimeOnly
      ? ""
      : runtimeOnly.onDisk
        ? " (only its runtime import)"
        : " (only the --runtime in its banner)";
    lines.push(`  ${difference.state}: ${join(options.out, difference.file)}${note}`);
    if (difference.hunk) lines.push(...renderHunk(difference.hunk, "    "));
  }
  const named = differences.find(
    (difference) => difference.runtimeImport?.onDisk && difference.runtimeImport.generated,
  );
  if (named?.runtimeImport && differences.every((difference) => difference.runtimeImport)) {
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
    const { runOnce } = await import("./run.js");
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
    pending = setTimeout(() => (running = running.then(() => runReporting(options, quiet))), 25);
  });
}

export const command: Command = {
  async run(args) {
    const argv = await parseArguments(args);
    let options: RunOptions;
    try {
      options = resolveOptions(argv, process.cwd());
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(`rcp-gen: ${error.message}`);
      return exitCode.error;
    }
    const status = await runReporting(options, argv.quiet);
    if (argv.watch) watchSchema(options, argv.quiet);
    return status;
  },
};
