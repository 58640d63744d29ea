/** `rcp-gen init [dir] [--force]`: scaffolds an engine project (init/scaffold.ts) and says what to run next. */
import { relative } from "node:path";
import type { CommandModule, InferredOptionTypes } from "yargs";
import { switchOption } from "./options.js";
import { shellWord } from "./regenerate-command.js";
import { exitCode, UsageError } from "./usage-mistakes.js";

export const initOptions = { force: switchOption("Write into a folder that is not empty") } as const;

export const initCommand: CommandModule<object, InferredOptionTypes<typeof initOptions> & { dir: string }> = {
  command: "init [dir]",
  describe: "Scaffold a working RCP engine project in dir (default: the current folder)",
  builder: (yargs) =>
    yargs
      .usage(
        "$0 init [dir] [--force]\n\nScaffolds a working RCP engine project in dir (default: the current folder): package.json, tsconfig, the RCP/1 schema plus an example vendor method, a server, a client and a test, with its code generated.",
      )
      .positional("dir", { type: "string", default: ".", describe: "The project's folder" })
      .options(initOptions)
      .example("$0 init my-engine", "then: cd my-engine && npm install && npm start"),
  handler: async ({ dir, force }) => {
    const { scaffoldProject, ScaffoldRefused } = await import("../init/scaffold.js");
    try {
      const scaffolded = await scaffoldProject(dir, { force: force ?? false });
      const where = relative(process.cwd(), scaffolded.dir);
      console.log(`rcp-gen: made an RCP engine project in ${where || "."}: ${scaffolded.entries.join(", ")}`);
      const specs = Object.entries(scaffolded.fileSpecs);
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
