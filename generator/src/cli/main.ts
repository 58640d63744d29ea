#!/usr/bin/env node
/** rcp-gen's command line: `rcp-gen <sub-command> ...` (commands.ts), or else the generator itself. */
import { subCommands } from "./commands.js";
import { runCommand } from "./usage.js";

// `rcp-gen | head` closes the pipe before the listing ends: what is left to print is dropped,
// as other command-line tools do, instead of an unhandled EPIPE ending the run.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

const args = process.argv.slice(2);
const sub = args[0] !== undefined && Object.hasOwn(subCommands, args[0]) ? subCommands[args[0]] : undefined;
const { command } = sub ? await sub.load() : await import("./generate-command.js");
process.exitCode = await runCommand(command, sub ? args.slice(1) : args);
