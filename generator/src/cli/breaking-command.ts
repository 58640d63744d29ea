/**
 * `rcp-gen breaking --against <dir | git-ref>`: the command line of evolve/breaking.ts.
 * Exit codes: 0 no breaking change at the level, 1 one or more, 2 a usage error or a folder
 * that does not load.
 */
import { parseArgs } from "node:util";
import { exitCode, UsageError, type Command } from "./usage.js";
import { parsedFlags } from "./flag-line.js";
import { schemaFolderSetting } from "./schema-setting.js";

const helpHint = "rcp-gen breaking --help";

const flags = {
  against: {
    type: "string",
    describe: "The old schema: a folder, or a git ref (origin/main) whose copy of the schema folder is read",
  },
  schema: {
    type: "string",
    describe: "The new schema folder (default: the settings' schema, else schema)",
  },
  level: {
    type: "string",
    describe: "wire (default): what breaks deployed peers; code: also what breaks users of the generated TypeScript",
  },
  json: { type: "boolean", describe: "Print the findings as JSON" },
  help: { type: "boolean", describe: "Show this help" },
} as const;

const helpText = [
  "rcp-gen breaking --against <dir | git-ref> [--schema dir] [--level wire|code] [--json]",
  "",
  "Compares the schema folder with an older one and reports each change with its file, JSON pointer, rule and severity; exits 1 when a change breaks at the level.",
  "",
  "Options:",
  ...Object.entries(flags).map(([name, flag]) => `  --${name.padEnd(8)} ${flag.describe}`),
  "",
  "Examples:",
  "  rcp-gen breaking --against origin/main   in CI: fail a pull request that breaks deployed peers",
].join("\n");

export const command: Command = {
  async run(args) {
    const { values, positionals } = parsedFlags(flags, helpHint, () =>
      parseArgs({
        args: [...args],
        options: flags,
        strict: true,
        allowPositionals: true,
      }),
    );
    if (values.help) {
      console.log(helpText);
      return exitCode.ok;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, helpHint);
    if (values.against === undefined) throw new UsageError("--against <dir | git-ref> is required", helpHint);
    const level = values.level ?? "wire";
    if (level !== "wire" && level !== "code")
      throw new UsageError(`--level must be wire or code, got ${level}`, helpHint);
    const schema = values.schema ?? schemaFolderSetting(process.cwd());
    const [{ breaking }, { AgainstError }, { SchemaFolderError }] = await Promise.all([
      import("../evolve/breaking.js"),
      import("../evolve/against.js"),
      import("../load/loader.js"),
    ]);
    try {
      return await breaking({
        schema,
        against: values.against,
        level,
        json: values.json ?? false,
      });
    } catch (error) {
      if (error instanceof AgainstError) throw new UsageError(error.message, helpHint);
      if (!(error instanceof SchemaFolderError)) throw error;
      console.error(`rcp-gen breaking: a schema folder does not load:\n${error.message}`);
      return exitCode.error;
    }
  },
};
