/**
 * `rcp-gen breaking --against <dir | git-ref | npm:spec>`: the command line of evolve/breaking.ts.
 * Exit codes: 0 no breaking change at the level, 1 one or more, 2 a usage error or a folder
 * that does not load.
 */
import type { CommandModule, InferredOptionTypes } from "yargs";
import { choiceOption, jsonOption, valueOption } from "./options.js";
import { schemaFolderSetting, schemaOption } from "./schema-setting.js";
import { exitCode, UsageError } from "./usage-mistakes.js";

export const breakingOptions = {
  against: valueOption(
    "The old schema: a folder, a git ref (origin/main) whose copy of the schema folder is read, or npm:<spec>, a published schema package",
  ),
  schema: schemaOption,
  level: choiceOption(
    "wire (default): what breaks deployed peers; code: also what breaks users of the generated TypeScript",
    ["wire", "code"],
  ),
  json: jsonOption,
} as const;

export const breakingCommand: CommandModule<object, InferredOptionTypes<typeof breakingOptions>> = {
  command: "breaking",
  describe: "Report the schema changes that break deployed peers or generated code; exit 1 if any",
  builder: (yargs) =>
    yargs
      .usage(
        "$0 breaking --against <dir | git-ref | npm:spec> [--schema dir] [--level wire|code] [--json]\n\nCompares the schema folder with an older one and reports each change with its file, JSON pointer, rule and severity; exits 1 when a change breaks at the level.",
      )
      .options(breakingOptions)
      .example("$0 breaking --against origin/main", "in CI: fail a pull request that breaks deployed peers"),
  handler: async (argv) => {
    if (argv.against === undefined) throw new UsageError("--against <dir | git-ref | npm:spec> is required");
    const schema = argv.schema ?? schemaFolderSetting(process.cwd());
    const [{ breaking }, { AgainstError }, { SchemaFolderError }] = await Promise.all([
      import("../evolve/breaking.js"),
      import("../evolve/against.js"),
      import("../load/loader.js"),
    ]);
    try {
      process.exitCode = breaking({
        schema,
        against: argv.against,
        level: argv.level ?? "wire",
        json: argv.json ?? false,
      });
    } catch (error) {
      if (error instanceof AgainstError) throw new UsageError(error.message, error.hint);
      if (!(error instanceof SchemaFolderError)) throw error;
      console.error(`rcp-gen breaking: a schema folder does not load:\n${error.message}`);
      process.exitCode = exitCode.error;
    }
  },
};
