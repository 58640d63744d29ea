/**
 * `rcp-gen inspect`: a web page on 127.0.0.1 to poke an engine with (../inspect/inspect.ts).
 *   rcp-gen inspect [options] -- <command> [args...]   a stdio engine, started by the inspector
 *   rcp-gen inspect [options] --http <url>             an HTTP engine at its RCP base URL
 * Exit codes: 0 stopped by Ctrl-C, 2 a usage error or no engine to connect to.
 */
import type { CommandModule, InferredOptionTypes } from "yargs";
import { engineOptions, portNumber, switchOption, valueOption } from "./options.js";
import { checkedEngineTarget } from "./http-base.js";
import { schemaFolderSetting, schemaOption } from "./schema-setting.js";

export const inspectOptions = {
  ...engineOptions,
  port: valueOption("The page's port (default: a free one)"),
  open: switchOption("Open the page in the default browser"),
  schema: schemaOption,
} as const;

export const inspectCommand: CommandModule<object, InferredOptionTypes<typeof inspectOptions>> = {
  command: "inspect",
  describe: "Serve a web page on 127.0.0.1 to call an engine, watch its progress and frames, and cancel",
  builder: (yargs) =>
    yargs
      .usage(
        [
          "$0 inspect [options] -- <command> [args...]   inspect a stdio engine (started by the inspector)",
          "$0 inspect [options] --http <url>             inspect an HTTP engine at its RCP base URL",
          "",
          "Prints the page's URL, which holds this session's token; the page is served on 127.0.0.1 only.",
        ].join("\n"),
      )
      .options(inspectOptions),
  handler: async (argv) => {
    const target = await checkedEngineTarget(argv);
    const port = portNumber("port", argv.port);
    const { inspect } = await import("../inspect/inspect.js");
    process.exitCode = await inspect({
      target,
      schema: argv.schema ?? schemaFolderSetting(process.cwd()),
      ...(port === undefined ? {} : { port }),
      open: argv.open ?? false,
    });
  },
};
