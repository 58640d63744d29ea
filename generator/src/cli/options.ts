/**
 * The kinds of option rcp-gen's commands take, and the options several commands share, defined
 * once. Every option belongs to its own command (`global: false`): `rcp-gen init --schema x` is
 * an unknown option, not a flag init ignores.
 */
import type { Arguments } from "yargs";
import { UsageError } from "./usage-mistakes.js";

/** A flag given twice counts once, with its last value, as most command lines do. */
function lastGiven<Value extends string>(value: Value | Value[]): Value {
  return Array.isArray(value) ? value.at(-1)! : value;
}

/** An option taking one value: `--schema <dir>`. */
export function valueOption(describe: string) {
  return { type: "string", requiresArg: true, coerce: lastGiven<string>, describe, global: false } as const;
}

/** An option that may be given several times, one value each: `--plugin a.js --plugin b.js`. */
export function repeatedOption(describe: string) {
  return { type: "string", array: true, nargs: 1, describe, global: false } as const;
}

/** An on/off flag: `--check`. */
export function switchOption(describe: string) {
  return { type: "boolean", describe, global: false } as const;
}

/** An option whose value is one of `choices`: `--level wire`. */
export function choiceOption<const Choice extends string>(describe: string, choices: readonly Choice[]) {
  return { type: "string", requiresArg: true, choices, coerce: lastGiven<Choice>, describe, global: false } as const;
}

export const jsonOption = switchOption("Print the report as JSON");

/** conform, mcp and inspect reach an engine by an HTTP base URL or a command they start (after `--`). */
export const engineOptions = {
  http: valueOption("The engine's RCP base URL (instead of -- <command> [args...])"),
  cwd: valueOption("The working directory of a stdio engine"),
} as const;

export type EngineTarget = { http: string } | { command: string[]; cwd?: string };

/** The engine the command line names: `--http <url>`, or the words after `--` (main.ts lets only these commands have them). */
export function engineTarget(argv: Arguments<{ http?: string; cwd?: string }>): EngineTarget {
  const command = (argv["--"] as string[] | undefined) ?? [];
  if ((argv.http === undefined) === (command.length === 0))
    throw new UsageError("give either --http <url> or -- <command> [args...], not both");
  if (argv.http !== undefined) return { http: argv.http };
  return { command, ...(argv.cwd === undefined ? {} : { cwd: argv.cwd }) };
}

/** A port number given as text (`--port`, `--listen`); 0 asks for a free one. */
export function portNumber(flag: string, given: string | undefined): number | undefined {
  const port = given === undefined ? undefined : Number(given);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535))
    throw new UsageError(`--${flag} must be a port number in 0..65535, got ${given}`);
  return port;
}
