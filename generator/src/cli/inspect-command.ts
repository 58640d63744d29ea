/**
 * `rcp-gen inspect`: a web page on 127.0.0.1 to poke an engine with (../inspect/inspect.ts).
 *   rcp-gen inspect [options] -- <command> [args...]   a stdio engine, started by the inspector
 *   rcp-gen inspect [options] --http <url>             an HTTP engine at its RCP base URL
 * Exit codes: 0 stopped by Ctrl-C, 2 a usage error or no engine to connect to.
 */
import { parseArgs } from "node:util";
import { inspect } from "../inspect/inspect.js";
import { parsedFlags } from "./flag-line.js";
import { UsageError, type Command } from "./usage.js";

const USAGE = `Usage:
  rcp-gen inspect [options] -- <command> [args...]   inspect a stdio engine (started by the inspector)
  rcp-gen inspect [options] --http <url>             inspect an HTTP engine at its RCP base URL

Prints the page's URL, which holds this session's token; the page is served on 127.0.0.1 only.

Options:
  --port <n>      the page's port (default: a free one)
  --open          open the page in the default browser
  --schema <dir>  the schema folder (default: the RCP/1 schema rcp-gen ships)
  --cwd <dir>     the working directory of a stdio engine`;

const HINT = "rcp-gen inspect --help lists the options";

const FLAGS = {
  http: { type: "string" },
  port: { type: "string" },
  open: { type: "boolean", default: false },
  schema: { type: "string" },
  cwd: { type: "string" },
  help: { type: "boolean", default: false },
} as const;

export const command: Command = { run: inspectCommand };

async function inspectCommand(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parsedFlags(FLAGS, HINT, () =>
    parseArgs({ args: [...argv], allowPositionals: true, options: FLAGS }),
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ((values.http === undefined) === (positionals.length === 0))
    throw new UsageError("give either --http <url> or -- <command> [args...], not both", HINT);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new UsageError(`--port must be a port number, got ${values.port}`, HINT);
  return inspect({
    target:
      values.http !== undefined
        ? { http: values.http }
        : { command: positionals, ...(values.cwd === undefined ? {} : { cwd: values.cwd }) },
    ...(values.schema === undefined ? {} : { schema: values.schema }),
    ...(port === undefined ? {} : { port }),
    open: values.open,
  });
}
