/**
 * `rcp-gen add method <name> [--schema dir]`: writes a new vendor method's file into the schema
 * folder (evolve/add-method.ts). Exit codes: 0 written, 2 a name refused, a usage error or a
 * folder that does not load.
 */
import { join } from "node:path";
import type { CommandModule, InferredOptionTypes } from "yargs";
import { display } from "./config.js";
import { schemaFolderSetting, schemaOption } from "./schema-setting.js";
import { exitCode, UsageError } from "./usage-mistakes.js";

export const addOptions = { schema: schemaOption } as const;

const addMethodCommand: CommandModule<object, InferredOptionTypes<typeof addOptions> & { name: string }> = {
  command: "method <name>",
  describe: "Write methods/<name>.json for a new vendor method x-<vendor>/<name>",
  builder: (yargs) =>
    yargs
      .positional("name", { type: "string", demandOption: true, describe: "The wire name, x-<vendor>/<name>" })
      .options(addOptions),
  handler: async (argv) => {
    const schema = display(process.cwd(), argv.schema ?? schemaFolderSetting(process.cwd()));
    const [{ addMethod, AddMethodRefused }, { SchemaFolderError }] = await Promise.all([
      import("../evolve/add-method.js"),
      import("../load/loader.js"),
    ]);
    try {
      const added = addMethod(schema, argv.name);
      console.log(
        `rcp-gen: wrote ${join(schema, added.file)}: ${argv.name}, gated by the ${added.capability} capability`,
      );
      console.log(
        `next: fill in its descriptions, params and result; npx rcp-gen generates its handler; advertise "${added.capability}" in the server's capabilities`,
      );
    } catch (error) {
      if (error instanceof AddMethodRefused) throw new UsageError(error.message, "rcp-gen add method --help");
      if (!(error instanceof SchemaFolderError)) throw error;
      console.error(`rcp-gen add: the schema folder does not load:\n${error.message}`);
      process.exitCode = exitCode.error;
    }
  },
};

export const addCommand: CommandModule = {
  command: "add",
  describe: "Add to the schema folder: rcp-gen add method x-<vendor>/<name>",
  builder: (yargs) =>
    yargs
      .usage("$0 add method <name> [--schema dir]")
      .command(addMethodCommand)
      .demandCommand(1, "add what? rcp-gen add method x-<vendor>/<name>"),
  handler: () => {},
};
