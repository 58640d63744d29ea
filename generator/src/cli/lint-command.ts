/**
 * `rcp-gen lint [--schema dir] [--json]`: the command line of evolve/lint.ts, with each rule's
 * level from the settings (`"lint"` in rcp-gen.config.json or package.json's "rcp-gen").
 * Exit codes: 0 no error-level finding, 1 some, 2 a usage error or a folder that does not load.
 */
import type { CommandModule, InferredOptionTypes } from "yargs";
import { ConfigError, findConfig } from "./config.js";
import { jsonOption } from "./options.js";
import { schemaFolderSetting, schemaOption } from "./schema-setting.js";
import { exitCode, UsageError } from "./usage-mistakes.js";

export const lintOptions = {
  schema: schemaOption,
  json: jsonOption,
} as const;

export const lintCommand: CommandModule<object, InferredOptionTypes<typeof lintOptions>> = {
  command: "lint",
  describe: "Check the schema folder against the lint rules the settings turn on; exit 1 on an error",
  // The rules are listed in the help, so they load with the command (they load the schema loader).
  builder: async (yargs) => {
    const { lintRuleIds, lintRules } = await import("../evolve/lint-rules.js");
    return yargs
      .usage(
        [
          "$0 lint [--schema dir] [--json]",
          "",
          'Checks the schema folder against these rules; set each to "off", "warn" or "error" (the default) under "lint" in rcp-gen.config.json:',
          ...lintRuleIds.map((id) => `  ${id.padEnd(18)} ${lintRules[id].summary}`),
        ].join("\n"),
      )
      .options(lintOptions)
      .wrap(null); // the rules' table reads best unwrapped
  },
  handler: async (argv) => {
    let found;
    try {
      found = findConfig(process.cwd());
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const [{ lint }, { lintRuleIds }, { SchemaFolderError }] = await Promise.all([
      import("../evolve/lint.js"),
      import("../evolve/lint-rules.js"),
      import("../load/loader.js"),
    ]);
    const levels = found?.config.lint ?? {};
    const unknown = Object.keys(levels).find((id) => !(lintRuleIds as readonly string[]).includes(id));
    if (unknown !== undefined && found !== undefined)
      throw new UsageError(
        `${found.file}: ${found.keyPrefix === "" ? "" : `${found.keyPrefix}.`}lint.${unknown}: no such rule (rules: ${lintRuleIds.join(", ")})`,
      );
    try {
      process.exitCode = lint({
        schema: argv.schema ?? schemaFolderSetting(process.cwd()),
        levels,
        json: argv.json ?? false,
      });
    } catch (error) {
      if (!(error instanceof SchemaFolderError)) throw error;
      console.error(`rcp-gen lint: the schema folder does not load:\n${error.message}`);
      process.exitCode = exitCode.error;
    }
  },
};
