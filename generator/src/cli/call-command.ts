/**
 * `rcp-gen call`: call any engine from a shell (../call/run-call.ts).
 *   rcp-gen call <method> [params] [--<param> <value>...] -- <command> [args...]   a stdio engine it starts
 *   rcp-gen call <method> [params] [--<param> <value>...] --http <url>             an HTTP engine
 *   rcp-gen call --list (--http <url> | -- <command>)                             what the engine advertises
 * Params come from flags derived from the method's params schema (../call/param-flags.ts),
 * over `--params` / the positional `[params]`: JSON text, `@file.json`, or `-` for stdin.
 * Exit codes: 0 a result, 1 an RCP error, 2 a usage error, 3 the engine could not be reached
 * or the connection failed, 130 a second Ctrl-C.
 */
import { readFileSync } from "node:fs";
import yargs, { type Argv, type CommandModule, type InferredOptionTypes, type Options } from "yargs";
import { getPath, setPath } from "@rcp-gen/runtime/testing";
import { engineOptions, engineTarget, repeatedOption, switchOption, valueOption } from "./options.js";
import { schemaFolderSetting } from "./schema-setting.js";
import { UsageError } from "./usage-mistakes.js";
import type { ParamFlag } from "../call/param-flags.js";
import type { LoadedSchemaFolder } from "../load/loaded-folder.js";

export const callOptions = {
  ...engineOptions,
  schema: valueOption(
    `The schema folder (default: the project's, as rcp-gen.config.json or package.json's "rcp-gen" key says; else the RCP/1 schema rcp-gen ships)`,
  ),
  params: valueOption("The params: JSON text, @file.json, or - for stdin; flags of single params go on top"),
  list: switchOption("Print the methods the engine advertises, with the capability gating each"),
  progress: switchOption("Ask for progress and print each event on stderr"),
  ndjson: switchOption("Print progress and log frames on stderr as they arrive, one JSON line each"),
  "log-level": valueOption("Ask for the engine's logs at this level and above (§17.1), printed on stderr"),
  timeout: valueOption("Milliseconds before the call fails with -32014 and a cancel is sent"),
  header: repeatedOption('An HTTP header for every request, "Name: value" (repeatable), e.g. an Authorization'),
} as const;

type CallArguments = InferredOptionTypes<typeof callOptions> & { method?: string; paramsText?: string };

/** The method named on the command line and the schema folder, read before yargs knows the method's flags. */
function peek(args: readonly string[]): { method?: string; schema: string } {
  const parsed = yargs([...args])
    .help(false)
    .version(false)
    .parserConfiguration({ "camel-case-expansion": false, "populate--": true })
    .options({
      schema: { type: "string" },
      ...Object.fromEntries(["list", "progress", "ndjson"].map((name) => [name, { type: "boolean" as const }])),
    })
    .parseSync();
  const [, method] = parsed._.map(String);
  const schema = typeof parsed.schema === "string" ? parsed.schema : schemaFolderSetting(process.cwd());
  return { ...(method === undefined ? {} : { method }), schema };
}

/**
 * The command, with the flags of the method named in `args` when it is `rcp-gen call <method>`:
 * the schema is read only then, so other commands load none of it.
 */
export async function callCommandFor(args: readonly string[]): Promise<CommandModule<object, CallArguments>> {
  const named = args[0] === "call" ? peek(args) : undefined;
  const flags = named?.method === undefined ? [] : await methodFlags(named.schema, named.method);
  // yargs lays out the whole help text of every command it runs; a call's flags join it only
  // when the help is asked for, which keeps dozens of flags from slowing every call down.
  const helping = args.includes("--help") || args.includes("-h");
  return {
    command: "call [method] [paramsText]",
    describe: "Call a method of an engine (stdio or HTTP) from the shell; the result is printed as JSON",
    builder: (argv: Argv): Argv<CallArguments> => {
      const built = argv
        .usage(
          [
            "$0 call <method> [params] [--<param> <value>...] -- <command> [args...]   call a stdio engine (started by call)",
            "$0 call <method> [params] [--<param> <value>...] --http <url>             call an HTTP engine",
            "$0 call --list (--http <url> | -- <command> [args...])                    list the methods it advertises",
          ].join("\n"),
        )
        .positional("method", { type: "string", describe: "The method's wire name, e.g. retrieve" })
        .positional("paramsText", { type: "string", describe: "The params as JSON text, @file.json, or -" })
        .options(callOptions)
        .epilogue(
          "Exit codes: 0 a result, 1 an RCP error (code, message and data.field on stderr), 2 a usage error, 3 the engine could not be reached or the connection failed, 130 a second Ctrl-C. Ctrl-C cancels the call and waits for the engine's answer.",
        );
      if (flags.length > 0 && helping)
        built.group(
          flags.map((flag) => flag.name),
          `Params of ${named!.method!} (from its schema):`,
        );
      for (const flag of flags) built.option(flag.name, { ...optionOf(flag), hidden: !helping });
      // yargs also sees `filter` in `--filter.field`: each parent of a dotted flag is known, unlisted.
      const parents = new Set(
        flags.flatMap((flag) =>
          flag.name
            .split(".")
            .slice(0, -1)
            .map((_, n, keys) => keys.slice(0, n + 1).join(".")),
        ),
      );
      for (const parent of parents) built.option(parent, { hidden: true, global: false });
      return built;
    },
    handler: async (argv) => {
      const target = engineTarget(argv);
      const folder = await schemaFolder(argv.schema ?? schemaFolderSetting(process.cwd()));
      if (argv.list !== true && argv.method === undefined)
        throw new UsageError("name a method to call, or give --list");
      if (argv.method !== undefined && !folder.methods.some((entry) => entry.method === argv.method))
        throw new UsageError(
          `${argv.method} is not a method of the schema at ${folder.dir}`,
          "rcp-gen call --list shows the engine's methods",
        );
      if (argv.params !== undefined && argv.paramsText !== undefined)
        throw new UsageError("give the params once: --params or the positional [params]");
      // yargs reads a lone "-" (stdin, as many tools spell it) as an empty string.
      const positional = argv.paramsText === "" && process.argv.includes("-") ? "-" : argv.paramsText;
      const text = argv.params ?? positional;
      const params = text === undefined ? {} : paramsFrom(text);
      for (const flag of flags) {
        const value = getPath(argv, flag.name) ?? argv[flag.name];
        // yargs does not coerce dotted options: JSON-valued flags are parsed here.
        if (value !== undefined)
          setPath(params, flag.name, flag.type === "json" && typeof value === "string" ? jsonOrText(value) : value);
      }
      const timeoutMs = argv.timeout === undefined ? undefined : Number(argv.timeout);
      if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
        throw new UsageError(`--timeout must be a positive integer of milliseconds, got ${argv.timeout}`);
      const { runCall } = await import("../call/run-call.js");
      process.exitCode = await runCall({
        target,
        folder,
        list: argv.list === true,
        ...(argv.method === undefined ? {} : { method: argv.method }),
        params,
        progress: argv.progress === true || argv.ndjson === true,
        ndjson: argv.ndjson === true,
        ...(argv["log-level"] === undefined ? {} : { logLevel: argv["log-level"] }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        headers: headersOf(argv.header ?? []),
      });
    },
  };
}

/** The method's flags, minus any whose name one of call's own options takes (those params go in --params). */
async function methodFlags(schema: string, method: string): Promise<ParamFlag[]> {
  const { paramFlags } = await import("../call/param-flags.js");
  try {
    return paramFlags(await schemaFolder(schema), method).filter(
      (flag) => !Object.hasOwn(callOptions, flag.name.split(".")[0]!) && flag.name !== "help",
    );
  } catch {
    // A folder that does not load is reported by the handler, which loads it again.
    return [];
  }
}

const loaded = new Map<string, LoadedSchemaFolder>();

/** The folder at `path`, loaded once: for the method's flags, then for the call. */
async function schemaFolder(path: string): Promise<LoadedSchemaFolder> {
  const { loadSchemaFolder } = await import("../load/loader.js");
  let folder = loaded.get(path);
  if (folder === undefined) loaded.set(path, (folder = loadSchemaFolder(path)));
  return folder;
}

function optionOf(flag: ParamFlag): Options {
  const base = { describe: flag.describe, global: false, requiresArg: flag.type !== "boolean" } as const;
  if (flag.type === "json") return { ...base, type: "string" };
  return {
    ...base,
    type: flag.type,
    ...(flag.array ? { array: true } : {}),
    ...(flag.choices === undefined ? {} : { choices: [...flag.choices] }),
  };
}

/** JSON when the text parses as JSON, else the text itself: `--filter.value '["a","b"]'` or `--filter.value tag`. */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function paramsFrom(text: string): Record<string, unknown> {
  const source =
    text === "-" ? readFileSync(0, "utf8") : text.startsWith("@") ? readFileSync(text.slice(1), "utf8") : text;
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new UsageError(`the params are not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError("the params must be a JSON object");
  return value as Record<string, unknown>;
}

function headersOf(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new UsageError(`--header takes "Name: value", got ${line}`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}
