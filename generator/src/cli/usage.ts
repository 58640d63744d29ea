/**
 * What every rcp-gen command shares: its exit codes, and usage mistakes reported as one line
 * saying what is wrong plus one line of hint (never the whole help), exiting 2, so a CI script
 * tells them apart from drift under --check (1).
 */
import yargs, { type Argv } from "yargs";

export const exitCode = { ok: 0, drift: 1, error: 2 } as const;

/** A sub-command: it parses its own arguments and resolves to the process exit code. */
export interface Command {
  run(args: readonly string[]): Promise<number>;
}

export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

/** Runs a command; a UsageError becomes its two lines on stderr and exit 2. */
export async function runCommand(command: Command, args: readonly string[]): Promise<number> {
  try {
    return await command.run(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`rcp-gen: ${error.message}`);
    console.error(`hint: ${error.hint}`);
    return exitCode.error;
  }
}

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
