#!/usr/bin/env node
/** rcp-gen: generate types, validators, server stubs and clients from an RCP schema folder. */
import { watch } from "node:fs";
import { isAbsolute, join } from "node:path";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { SchemaFolderError } from "../load/loader.js";
import { runOnce, type RunOptions, type RunReport } from "./run.js";
import { generatorVersion } from "./version.js";

const exitDrift = 1;
const exitError = 2;

const argv = await yargs(hideBin(process.argv))
  .scriptName("rcp-gen")
  .usage(
    "$0 --schema <dir> --out <dir> [options]\n\nGenerates types.ts, validators.js, methods.ts, server.ts, client.ts and index.ts from an RCP schema folder.",
  )
  .option("schema", {
    type: "string",
    demandOption: true,
    describe: "The schema folder (protocol.json, methods/, ...)",
  })
  .option("out", {
    type: "string",
    demandOption: true,
    describe: "The output folder; replaced as a whole, only ever holds generated files",
  })
  .option("runtime", {
    type: "string",
    describe:
      "Import path of the runtime entry for generated code (default: @rcp-gen/runtime/codegen); client and Node-only code import the entries beside it with -client and -node suffixes",
  })
  .option("check", {
    type: "boolean",
    describe: "Write nothing; exit 1 listing every file that differs from what would be generated",
  })
  .option("watch", { type: "boolean", describe: "Regenerate whenever a file in the schema folder changes" })
  .option("quiet", { type: "boolean", default: false, describe: "Print only errors and drift" })
  .conflicts("check", "watch")
  .example("$0 --schema schema --out generated", "Generate into generated/, importing @rcp-gen/runtime")
  .example(
    "$0 --schema schema --out src/rcp --runtime ./vendor/rcp-runtime/codegen.js",
    "Generate against a runtime at another import path",
  )
  .example("$0 --schema schema --out generated --check", "Fail (exit 1) when generated/ is stale, e.g. in CI")
  .example("$0 --schema schema --out generated --watch", "Regenerate on every schema change")
  .epilogue(
    "Exit codes: 0 success, 1 --check found drift, 2 invalid schema folder or unwritable output.\nTo test a server's conformance: rcp-gen conform --help",
  )
  .version(generatorVersion)
  .wrap(null)
  .strict()
  .help()
  .parseAsync();

const options: RunOptions = {
  schema: argv.schema,
  out: argv.out,
  check: argv.check === true,
  ...(argv.runtime === undefined ? {} : { runtime: argv.runtime }),
};

function describeFailure(error: unknown): string {
  if (error instanceof SchemaFolderError) {
    const file = isAbsolute(error.file) ? error.file : join(options.schema, error.file);
    return `rcp-gen: ${file}: ${error.pointer || "(document)"}: ${error.problem}`;
  }
  return `rcp-gen: ${error instanceof Error ? error.message : String(error)}`;
}

function report(result: RunReport): number {
  const time = `${Math.round(result.milliseconds)} ms`;
  if (result.kind === "checked") {
    if (result.differences.length === 0) {
      if (!argv.quiet) console.log(`rcp-gen: ${options.out} is up to date (${time})`);
      return 0;
    }
    console.error(`rcp-gen: ${options.out} differs from what ${options.schema} generates:`);
    for (const { file, state } of result.differences) console.error(`  ${state}: ${join(options.out, file)}`);
    return exitDrift;
  }
  if (!argv.quiet) {
    for (const file of result.files) console.log(`  ${join(options.out, file.name)} (${file.bytes} bytes)`);
    console.log(
      `rcp-gen: wrote ${result.files.length} files for ${result.methods} methods and ${result.notifications} notifications in ${time}`,
    );
  }
  return 0;
}

async function runReporting(): Promise<number> {
  try {
    return report(await runOnce(options));
  } catch (error) {
    console.error(describeFailure(error));
    return exitError;
  }
}

process.exitCode = await runReporting();
if (argv.watch) watchSchema();

function watchSchema(): void {
  if (!argv.quiet) console.log(`rcp-gen: watching ${options.schema} for changes`);
  let pending: NodeJS.Timeout | undefined;
  // Runs never overlap: a change during a run is handled after that run ends.
  let running: Promise<unknown> = Promise.resolve();
  watch(options.schema, { recursive: true }, () => {
    // Editors write in bursts; one run per burst.
    clearTimeout(pending);
    pending = setTimeout(() => (running = running.then(runReporting)), 100);
  });
}
