/**
 * `rcp-gen generate`, which a bare `rcp-gen` also runs (main.ts): its options, help and
 * examples. The work is in run-or-watch.ts, loaded only when the command runs.
 */
import type { Arguments, Argv, CommandModule, InferredOptionTypes } from "yargs";
import { builtinTargets, defaultTargets, defaultTargetsAlias } from "../targets/builtin.js";
import { configFileName } from "./config.js";
import { choiceOption, repeatedOption, switchOption, valueOption } from "./options.js";
import { schemaDefault, schemaOption } from "./schema-setting.js";

export const generateOptions = {
  schema: { ...schemaOption, describe: `The schema folder: protocol.json, methods/, ... (${schemaDefault})` },
  out: valueOption("The output folder; replaced as a whole, only ever holds generated files"),
  runtime: valueOption(
    "Import path of the runtime entry for generated code (default: @rcp-gen/runtime/codegen); the protocol descriptor, client and Node-only code import the entries beside it with -protocol, -client and -node suffixes",
  ),
  config: valueOption(
    `Read settings from this file instead of looking for ${configFileName} or package.json's "rcp-gen" key`,
  ),
  targets: valueOption(
    `Comma-separated built-in targets: ${[defaultTargetsAlias, ...builtinTargets.map((target) => target.name)].join(", ")} (default: ${defaultTargetsAlias}, which is ${defaultTargets.join(", ")}); a target's requirements come with it`,
  ),
  plugin: repeatedOption(
    "An ESM module whose default export is an rcp-gen plugin (definePlugin from rcp-gen); repeatable",
  ),
  examples: valueOption(
    "A folder of example values for the docs targets: <shape>/<name>.json, e.g. methods.retrieve.params/basic.json",
  ),
  "module-format": choiceOption(
    "The modules generated: ts, TypeScript (default), or js, JavaScript with .d.ts declarations for projects that do not compile TypeScript",
    ["ts", "js"],
  ),
  check: {
    ...switchOption("Write nothing; exit 1 showing how each file differs from what would be generated"),
    conflicts: "watch",
  },
  watch: switchOption("Regenerate whenever a file in the schema folder changes"),
  quiet: switchOption("Print only errors and drift"),
} as const;

export type GenerateArguments = Arguments<InferredOptionTypes<typeof generateOptions>>;

/** What the default targets write, in words: `types.ts, ... and rcp.schema.json`. */
const defaultFiles = builtinTargets.filter((target) => target.byDefault).map((target) => target.summary);

export const generateSummary = `Generates ${defaultFiles.slice(0, -1).join(", ")} and ${defaultFiles.at(-1)} from an RCP schema folder (or the --targets chosen), plus what each --plugin makes. Flags may be left out when ${configFileName} (or an "rcp-gen" key in package.json) sets them.`;

/** The generator's options, examples and exit codes, for `rcp-gen --help` and `rcp-gen generate --help` alike. */
export function withGenerateOptions<T>(yargs: Argv<T>) {
  return yargs
    .options(generateOptions)
    .example([
      ["$0 --schema schema --out generated", "Generate into generated/, importing @rcp-gen/runtime"],
      ["$0", `Generate as ${configFileName} says: { "schema": "schema", "out": "src/generated" }`],
      ["$0 --runtime ./vendor/rcp-runtime/codegen.js", "Generate against a runtime at another import path"],
      ["$0 --targets default,openrpc,markdown", "Also write openrpc.json and a Markdown page per method"],
      ["$0 --plugin ./method-table.js", "Also write what a plugin of your own makes"],
      ["$0 --check", "Fail (exit 1) when the output is stale, e.g. in CI"],
      ["$0 --watch", "Regenerate on every schema change"],
    ])
    .epilogue(
      "Exit codes: 0 success, 1 --check found drift, 2 a usage mistake, an invalid schema folder or config, or unwritable output.",
    );
}

export const generateCommand: CommandModule<object, InferredOptionTypes<typeof generateOptions>> = {
  command: "generate",
  describe: "Generate code from the schema folder (what rcp-gen without a command does)",
  builder: (yargs) => withGenerateOptions(yargs.usage(`$0 generate [options]\n\n${generateSummary}`)),
  handler: async (argv) => {
    process.exitCode = await (await import("./run-or-watch.js")).generateFromCommandLine(argv);
  },
};
