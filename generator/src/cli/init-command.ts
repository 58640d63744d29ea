/** `rcp-gen init [dir] [--force]`: scaffolds an engine project (init/scaffold.ts) and says what to run next. */
import { relative } from "node:path";
import { exitCode, UsageError, type Command } from "./usage.js";
import { commandLine } from "./yargs-line.js";

const helpHint = "rcp-gen init --help";

export const command: Command = {
  async run(args) {
    const argv = await commandLine(args, helpHint)
      .scriptName("rcp-gen init")
      .usage(
        "$0 [dir] [--force]\n\nScaffolds a working RCP engine project in dir (default: the current folder): package.json, tsconfig, the RCP/1 schema plus an example vendor method, a server, a client and a test, with its code generated.",
      )
      .option("force", { type: "boolean", default: false, describe: "Write into a folder that is not empty" })
      .example("$0 my-engine", "then: cd my-engine && npm install && npm start")
      .strictOptions()
      .parseAsync();
    const [dir = ".", ...extra] = argv._.map(String);
    if (extra.length > 0) throw new UsageError(`init takes one folder, not ${argv._.length}`, helpHint);
    // Loaded once the arguments are sound: a usage mistake needs none of the generator.
    const { scaffoldProject, ScaffoldRefused } = await import("../init/scaffold.js");
    try {
      const scaffolded = await scaffoldProject(dir, { force: argv.force });
      const where = relative(process.cwd(), scaffolded.dir);
      console.log(`rcp-gen: made an RCP engine project in ${where || "."}: ${scaffolded.entries.join(", ")}`);
      console.log(`next: ${where ? `cd ${where} && ` : ""}npm install && npm start`);
      return exitCode.ok;
    } catch (error) {
      if (!(error instanceof ScaffoldRefused)) throw error;
      throw new UsageError(error.message, `rcp-gen init ${dir} --force writes the project over it`);
    }
  },
};
