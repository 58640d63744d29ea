/** `rcp-gen init [dir] [--force]`: scaffolds an engine project (init/scaffold.ts) and says what to run next. */
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { exitCode, UsageError, type Command } from "./usage.js";
import { parsedFlags } from "./flag-line.js";

const helpHint = "rcp-gen init --help";

const flags = {
  force: { type: "boolean", describe: "Write into a folder that is not empty" },
  help: { type: "boolean", describe: "Show this help" },
} as const;

const helpText = [
  "rcp-gen init [dir] [--force]",
  "",
  "Scaffolds a working RCP engine project in dir (default: the current folder): package.json, tsconfig, the RCP/1 schema plus an example vendor method, a server, a client and a test, with its code generated.",
  "",
  "Options:",
  ...Object.entries(flags).map(([name, flag]) => `  --${name.padEnd(8)} ${flag.describe}`),
  "",
  "Examples:",
  "  rcp-gen init my-engine  then: cd my-engine && npm install && npm start",
].join("\n");

export const command: Command = {
  async run(args) {
    const { values, positionals } = parsedFlags(flags, helpHint, () =>
      parseArgs({ args: [...args], options: flags, strict: true, allowPositionals: true }),
    );
    if (values.help) {
      console.log(helpText);
      return exitCode.ok;
    }
    const [dir = ".", ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`init takes one folder, not ${positionals.length}`, helpHint);
    // Loaded once the arguments are sound: a usage mistake needs none of the generator.
    const { scaffoldProject, ScaffoldRefused } = await import("../init/scaffold.js");
    try {
      const scaffolded = await scaffoldProject(dir, { force: values.force ?? false });
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
