/**
 * `rcp-gen lint [--schema dir] [--json]`: the command line of evolve/lint.ts, with each rule's
 * level from the settings (`"lint"` in rcp-gen.config.json or package.json's "rcp-gen").
 * Exit codes: 0 no error-level finding, 1 some, 2 a usage error or a folder that does not load.
 */
import { parseArgs } from "node:util";
import { exitCode, UsageError, type Command } from "./usage.js";
import { parsedFlags } from "./flag-line.js";
import { ConfigError, findConfig } from "./config.js";

const helpHint = "rcp-gen lint --help";

const flags = {
  schema: { type: "string", describe: "The schema folder (default: the settings' schema, else schema)" },
  json: { type: "boolean", describe: "Print the findings as JSON" },
  help: { type: "boolean", describe: "Show this help" },
} as const;

export const command: Command = {
  async run(args) {
    const { values, positionals } = parsedFlags(flags, helpHint, () =>
      parseArgs({ args: [...args], options: flags, strict: true, allowPositionals: true }),
    );
    const [{ lint }, { lintRuleIds, lintRules }, { SchemaFolderError }] = await Promise.all([
      import("../evolve/lint.js"),
      import("../evolve/lint-rules.js"),
      import("../load/loader.js"),
    ]);
    if (values.help) {
      console.log(
        [
          "rcp-gen lint [--schema dir] [--json]",
          "",
          'Checks the schema folder against these rules; set each to "off", "warn" or "error" (the default) under "lint" in rcp-gen.config.json:',
          ...lintRuleIds.map((id) => `  ${id.padEnd(18)} ${lintRules[id].summary}`),
          "",
          "Options:",
          ...Object.entries(flags).map(([name, flag]) => `  --${name.padEnd(8)} ${flag.describe}`),
        ].join("\n"),
      );
      return exitCode.ok;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`, helpHint);
    let found;
    try {
      found = findConfig(process.cwd());
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message, helpHint);
      throw error;
    }
    const levels = found?.config.lint ?? {};
    const unknown = Object.keys(levels).find((id) => !(lintRuleIds as readonly string[]).includes(id));
    if (unknown !== undefined)
      throw new UsageError(
        `${found!.file}: ${found!.keyPrefix === "" ? "" : `${found!.keyPrefix}.`}lint.${unknown}: no such rule (rules: ${lintRuleIds.join(", ")})`,
        helpHint,
      );
    try {
      return await lint({
        schema: values.schema ?? found?.config.schema ?? "schema",
        levels,
        json: values.json ?? false,
      });
    } catch (error) {
      if (!(error instanceof SchemaFolderError)) throw error;
      console.error(`rcp-gen lint: the schema folder does not load:\n${error.message}`);
      return exitCode.error;
    }
  },
};
