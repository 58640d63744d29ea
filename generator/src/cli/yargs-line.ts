/** yargs for a sub-command's arguments (init), its failures turned into rcp-gen's one-line usage mistakes. */
import yargs, { type Argv } from "yargs";
import { UsageError } from "./usage.js";

/**
 * What yargs' `.fail()` hands over, as one line naming the option as typed: its message, or
 * the parser's own error (YError). Any other error is not a usage mistake and goes on.
 */
export function usageErrorFromYargs(
  message: string | undefined,
  error: Error | undefined,
  args: readonly string[],
  hint: string,
): UsageError {
  if (error !== undefined && error.name !== "YError") throw error;
  return describeYargsMessage(message ?? error?.message ?? "invalid arguments", args, hint);
}

function describeYargsMessage(message: string, args: readonly string[], hint: string): UsageError {
  const asTyped = (name: string) =>
    args.find((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`) || arg === `-${name}`)?.split("=")[0];
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) {
    const names = unknown[1]!.split(", ");
    const described = names.map((name) => {
      const typed = asTyped(name);
      return typed === undefined ? `unexpected argument "${name}"` : `unknown option ${typed}`;
    });
    return new UsageError(described.join(", "), hint);
  }
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (exclusive) return new UsageError(`--${exclusive[1]} and --${exclusive[2]} cannot be used together`, hint);
  const noValue = /^Not enough arguments following: (\S+)$/.exec(message);
  if (noValue) return new UsageError(`--${noValue[1]} needs a value`, hint);
  return new UsageError(message.charAt(0).toLowerCase() + message.slice(1), hint);
}

/** A yargs parser for a command's arguments whose every failure is a UsageError with `hint`. */
export function commandLine(args: readonly string[], hint: string): Argv {
  return yargs([...args])
    .wrap(null)
    .fail((message, error) => {
      throw usageErrorFromYargs(message, error, args, hint);
    })
    .help();
}
