/**
 * What every rcp-gen command shares: its exit codes, and usage mistakes reported as one line
 * saying what is wrong plus one line of hint (never the whole help), exiting 2, so a CI script
 * tells them apart from drift under --check (1). Flags are parsed with node:util (flag-line.ts).
 */

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
