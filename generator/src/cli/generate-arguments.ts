/** The generator's flags (parsed as every command's, flag-line.ts) and its help text. */
import { parseArgs } from "node:util";
import { builtinTargets, defaultTargetsAlias } from "../plugin/targets.js";
import { subCommands } from "./commands.js";
import { configFileName } from "./config.js";
import { parsedFlags } from "./flag-line.js";
import { UsageError } from "./usage.js";
import { generatorVersion } from "./version.js";

export const helpHint = `rcp-gen --help lists every option and command (${Object.keys(subCommands).join(", ")})`;

const flags = {
  schema: { type: "string", value: "dir", describe: "The schema folder (protocol.json, methods/, ...)" },
  out: {
    type: "string",
    value: "dir",
    describe: "The output folder; replaced as a whole, only ever holds generated files",
  },
  runtime: {
    type: "string",
    value: "specifier",
    describe:
      "Import path of the runtime entry for generated code (default: @rcp-gen/runtime/codegen); the protocol descriptor, client and Node-only code import the entries beside it with -protocol, -client and -node suffixes",
  },
  config: {
    type: "string",
    value: "file",
    describe: `Read settings from this file instead of looking for ${configFileName} or package.json's "rcp-gen" key`,
  },
  targets: {
    type: "string",
    value: "list",
    describe: `Comma-separated built-in targets: ${[defaultTargetsAlias, ...builtinTargets.map((target) => target.name)].join(", ")} (default: ${defaultTargetsAlias}, the TypeScript modules and rcp.schema.json); a target's requirements come with it`,
  },
  plugin: {
    type: "string",
    multiple: true,
    value: "module",
    describe: "An ESM module whose default export is an rcp-gen plugin (definePlugin from rcp-gen); repeatable",
  },
  examples: {
    type: "string",
    value: "dir",
    describe:
      "A folder of example values for the docs targets: <shape>/<name>.json, e.g. methods.retrieve.params/basic.json",
  },
  "module-format": {
    type: "string",
    value: "ts|js",
    describe:
      "ts (default) writes TypeScript; js writes each module as .js plus .d.ts, for projects that compile no TypeScript",
  },
  check: {
    type: "boolean",
    describe: "Write nothing; exit 1 showing how each file differs from what would be generated",
  },
  watch: { type: "boolean", describe: "Regenerate whenever a file in the schema folder changes" },
  quiet: { type: "boolean", describe: "Print only errors and drift" },
  help: { type: "boolean", describe: "Show this help" },
  version: { type: "boolean", describe: "Show the version" },
} as const;

const examples: readonly [string, string][] = [
  ["rcp-gen --schema schema --out generated", "Generate into generated/, importing @rcp-gen/runtime"],
  ["rcp-gen", `Generate as ${configFileName} says: { "schema": "schema", "out": "src/generated" }`],
  [
    "rcp-gen --schema schema --out src/rcp --runtime ./vendor/rcp-runtime/codegen.js",
    "Generate against a runtime at another import path",
  ],
  ["rcp-gen --targets default,openrpc,markdown", "Also write openrpc.json and a Markdown page per method"],
  ["rcp-gen --plugin ./method-table.js", "Also write what a plugin of your own makes"],
  ["rcp-gen --check", "Fail (exit 1) when the output is stale, e.g. in CI"],
  ["rcp-gen --watch", "Regenerate on every schema change"],
];

export interface GenerateArguments {
  schema?: string | undefined;
  out?: string | undefined;
  runtime?: string | undefined;
  config?: string | undefined;
  targets?: string | undefined;
  plugin?: string[] | undefined;
  examples?: string | undefined;
  "module-format"?: string | undefined;
  check: boolean;
  watch: boolean;
  quiet: boolean;
}

/** The parsed flags, or what --help and --version print (then there is nothing to run). */
export function parseGenerateArguments(args: readonly string[]): GenerateArguments | { print: string } {
  const { values } = parsedFlags(flags, helpHint, () =>
    parseArgs({ args: [...args], options: flags, strict: true, allowPositionals: false }),
  );
  if (values.help) return { print: helpText() };
  if (values.version) return { print: generatorVersion };
  if (values.check && values.watch) throw new UsageError("--check and --watch cannot be used together", helpHint);
  const format = values["module-format"];
  if (format !== undefined && format !== "ts" && format !== "js")
    throw new UsageError(`--module-format must be ts or js (got "${format}")`, helpHint);
  const { check = false, watch = false, quiet = false, help: _help, version: _version, ...given } = values;
  return { ...given, check, watch, quiet };
}

function helpText(): string {
  const commands = Object.values(subCommands).map((sub) => `  rcp-gen ${sub.usage.padEnd(12)} ${sub.summary}`);
  const options = Object.entries(flags).map(([name, flag]) => {
    const value = "value" in flag ? ` <${flag.value}>` : "";
    return `  --${`${name}${value}`.padEnd(22)} ${flag.describe}`;
  });
  const width = Math.max(...examples.map(([command]) => command.length));
  return [
    "rcp-gen [--schema <dir>] [--out <dir>] [options]",
    "",
    "Generates types.ts, validators.ts, methods.ts, server.ts, client.ts, node.ts, index.ts and rcp.schema.json from an RCP schema folder (or the --targets chosen), plus what each --plugin makes.",
    `Flags may be left out when ${configFileName} (or an "rcp-gen" key in package.json) sets them.`,
    "",
    "Commands:",
    ...commands,
    "",
    "Options:",
    ...options,
    "",
    "Examples:",
    ...examples.map(([command, what]) => `  ${command.padEnd(width)}  ${what}`),
    "",
    "Exit codes: 0 success, 1 --check found drift, 2 a usage mistake, an invalid schema folder or config, or unwritable output.",
  ].join("\n");
}
