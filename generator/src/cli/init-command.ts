/** `rcp-gen init [dir] [--force] [--template plain|orama]`: scaffolds an engine project (init/scaffold.ts) and says what to run next. */
import { relative } from "node:path";
import type { CommandModule, InferredOptionTypes } from "yargs";
import { initTemplates } from "../init/manifest.js";
import { choiceOption, switchOption, valueOption } from "./options.js";
import { shellWord } from "./banner-command.js";
import { exitCode, UsageError } from "./usage-mistakes.js";

export const initOptions = {
  force: switchOption("Write into a folder that is not empty"),
  template: choiceOption(
    "The engine to start from: plain (default; a few documents in an array) or orama (an Orama store: hybrid search, filters, writes; L2)",
    initTemplates,
  ),
  "schema-package": valueOption(
    "Make a publishable schema package of this npm name instead (the RCP/1 schema folder, for --schema npm:<name>)",
  ),
} as const;

export const initCommand: CommandModule<object, InferredOptionTypes<typeof initOptions> & { dir: string }> = {
  command: "init [dir]",
  describe: "Scaffold a working RCP engine project in dir (default: the current folder)",
  builder: (yargs) =>
    yargs
      .usage(
        "$0 init [dir] [--force] [--template plain|orama]\n\nScaffolds a working RCP engine project in dir (default: the current folder): package.json, tsconfig, the RCP/1 schema plus an example vendor method, a server, a client and a test, with its code generated.",
      )
      .positional("dir", { type: "string", default: ".", describe: "The project's folder" })
      .options(initOptions)
      .example("$0 init my-engine", "then: cd my-engine && npm install && npm start")
      .example("$0 init my-engine --template orama", "an engine over an Orama store (docs/orama-engine.md)")
      .example("$0 init acme-schema --schema-package @acme/schema", "a schema package to npm publish"),
  handler: async ({ dir, force, template, "schema-package": schemaPackage }) => {
    const { scaffoldProject, scaffoldSchemaPackage, ScaffoldRefused } = await import("../init/scaffold.js");
    try {
      if (schemaPackage !== undefined) {
        if (template !== undefined)
          throw new UsageError("--template makes an engine; --schema-package a schema package");
        const made = scaffoldSchemaPackage(dir, { force: force ?? false, name: schemaPackage });
        console.log(
          `rcp-gen: made the schema package ${schemaPackage} in ${relative(process.cwd(), made.dir) || "."}: ${made.entries.join(", ")}`,
        );
        console.log(
          `next: edit schema/, then npm publish; generate from it with rcp-gen --schema npm:${schemaPackage}`,
        );
        process.exitCode = exitCode.ok;
        return;
      }
      const scaffolded = await scaffoldProject(dir, { force: force ?? false, template });
      const where = relative(process.cwd(), scaffolded.dir);
      console.log(`rcp-gen: made an RCP engine project in ${where || "."}: ${scaffolded.entries.join(", ")}`);
      const specs = Object.entries(scaffolded.fileSpecs ?? {});
      if (specs.length > 0)
        console.log(
          `rcp-gen: its package.json installs ${specs.map(([name, spec]) => `${name} from ${spec}`).join(" and ")}, as this rcp-gen was installed (not from the registry)`,
        );
      console.log(`next: ${where ? `cd ${shellWord(where)} && ` : ""}npm install && npm start`);
      process.exitCode = exitCode.ok;
    } catch (error) {
      if (!(error instanceof ScaffoldRefused)) throw error;
      throw new UsageError(error.message, `rcp-gen init ${dir} --force writes the project over it`);
    }
  },
};
