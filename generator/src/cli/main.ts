#!/usr/bin/env node
/**
 * rcp-gen's command line, on yargs: one command module per command (`*-command.ts`), each loading
 * its work only when it runs, so `rcp-gen --help` loads none of the generator. A bare `rcp-gen`
 * runs `generate`, whose options the top level shares; `generate` is a named command rather than
 * yargs's default one so that yargs can recommend a command for a mistyped one.
 */
import yargs, { type Argv } from "yargs";
import { addCommand, addOptions } from "./add-command.js";
import { breakingCommand, breakingOptions } from "./breaking-command.js";
import { callCommandFor, callOptions } from "./call-command.js";
import { conformCommand, conformOptions } from "./conform-command.js";
import { generateCommand, generateOptions, generateSummary, withGenerateOptions } from "./generate-command.js";
import { initCommand, initOptions } from "./init-command.js";
import { inspectCommand, inspectOptions } from "./inspect-command.js";
import { lintCommand, lintOptions } from "./lint-command.js";
import { mcpCommand, mcpOptions } from "./mcp-command.js";
import { mockCommand, mockOptions } from "./mock-command.js";
import { describeYargsFailure, exitCode, helpHint, UsageError } from "./usage-mistakes.js";
import { generatorVersion } from "./version.js";

// `rcp-gen | head` closes the pipe before the listing ends: what is left to print is dropped,
// as other command-line tools do, instead of an unhandled EPIPE ending the run.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

/** Each command's options by command name, for suggesting one for a mistyped option. */
const commandOptions: Readonly<Record<string, object>> = {
  generate: generateOptions,
  init: initOptions,
  conform: conformOptions,
  breaking: breakingOptions,
  lint: lintOptions,
  mcp: mcpOptions,
  inspect: inspectOptions,
  add: addOptions,
  mock: mockOptions,
  call: callOptions,
};

const args = process.argv.slice(2);
/** The command named (yargs takes it from the first word), for the hint under a mistake; undefined for the generator. */
const command = args[0] !== "generate" && Object.hasOwn(commandOptions, args[0] ?? "") ? args[0] : undefined;

/** The commands that pass the words after `--` to an engine they start. */
const engineCommands = new Set(["conform", "mcp", "inspect", "call"]);

const program: Argv = withGenerateOptions(
  yargs(args)
    .scriptName("rcp-gen")
    .usage(`$0 [generate] [options]\n$0 <command> [options]\n\n${generateSummary}`)
    .command(generateCommand)
    .command(initCommand)
    .command(conformCommand)
    .command(breakingCommand)
    .command(lintCommand)
    .command(mcpCommand)
    .command(inspectCommand)
    .command(addCommand)
    .command(mockCommand)
    .command(await callCommandFor(args))
    .completion("completion", "Print a shell completion script: rcp-gen completion >> ~/.bashrc (or ~/.zshrc)"),
)
  .strict()
  .recommendCommands()
  .parserConfiguration({ "camel-case-expansion": false, "populate--": true })
  .check((argv) => {
    const afterDashes = argv["--"] as string[] | undefined;
    if (afterDashes !== undefined && !engineCommands.has(String(argv._[0])))
      throw new UsageError(`unexpected argument "${afterDashes[0]}"`);
    return true;
  })
  // yargs's own wording for these mistakes, in the words of every rcp-gen message.
  .updateStrings({
    "Not enough arguments following: %s": "--%s needs a value",
    "Arguments %s and %s are mutually exclusive": "--%s and --%s cannot be used together",
    "Argument: %s, Given: %s, Choices: %s": "--%s cannot be %s (choices: %s)",
  })
  .version(generatorVersion)
  .help()
  .wrap(Math.min(100, process.stdout.columns ?? 100))
  .fail((message, error) => {
    // A handler's own error passes through; yargs's (a YError, or only a message) is a usage mistake.
    if (error !== undefined && error.name !== "YError") throw error;
    const positionals = program.parsed ? program.parsed.argv._.map(String) : [];
    const options = Object.keys(commandOptions[command ?? "generate"]!);
    throw new UsageError(describeYargsFailure(message, { positionals, options: [...options, "help", "version"] }));
  });

try {
  const argv = await program.parseAsync();
  if (argv._.length === 0) await generateCommand.handler(argv as Parameters<typeof generateCommand.handler>[0]);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`rcp-gen: ${error.message}`);
  console.error(`hint: ${error.hint ?? helpHint(command)}`);
  process.exitCode = exitCode.error;
}
