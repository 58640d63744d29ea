/**
 * What every rcp-gen command shares: its exit codes, and usage mistakes told as one line saying
 * what is wrong plus one hint line (never the whole help), exiting 2, so that a CI script tells
 * them apart from drift under --check (1). yargs finds the mistakes (main.ts); this says them.
 */
import { distance } from "fastest-levenshtein";

export const exitCode = { ok: 0, drift: 1, error: 2 } as const;

export class UsageError extends Error {
  override name = "UsageError";
  /** The hint line; without one, main.ts points at the command's --help. */
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The hint under a usage mistake of `command` (undefined: the generator, rcp-gen's default). */
export function helpHint(command: string | undefined): string {
  return command === undefined
    ? "rcp-gen --help lists every option and command"
    : `rcp-gen ${command} --help lists its options`;
}

/** What the command line held when yargs failed: its positional words and the options the command knows. */
export interface FailureContext {
  readonly positionals: readonly string[];
  readonly options: readonly string[];
}

/**
 * yargs's failure message as one line. yargs names unknown options without their dashes and
 * suggests no option, so both are done here; its other messages are worded by main.ts's
 * updateStrings, and a multi-line one ("Invalid values:" and a line per option) keeps its first option.
 */
export function describeYargsFailure(message: string, context: FailureContext): string {
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) return describeUnknown(unknown[1]!.split(", ")[0]!, context);
  const recommended = /^Did you mean (.+)\?$/.exec(message);
  if (recommended) {
    // The mistyped word is the positional nearest the command yargs recommends (`add methd x`: methd).
    const meant = recommended[1]!;
    const typed = context.positionals.reduce((best, word) =>
      distance(word, meant) < distance(best, meant) ? word : best,
    );
    return `unknown command "${typed}" (did you mean ${meant}?)`;
  }
  // yargs words this one as a plural (y18n's __n), which updateStrings cannot reword.
  const missing = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(message);
  if (missing) return `missing arguments: got ${missing[1]}, need at least ${missing[2]}`;
  const lines = message.split("\n").map((line) => line.trim());
  return lines[0]!.endsWith(":") && lines.length > 1 ? lines[1]! : lines[0]!;
}

function describeUnknown(name: string, context: FailureContext): string {
  if (context.positionals.includes(name)) return `unexpected argument "${name}"`;
  const flag = (option: string) => (option.length === 1 ? `-${option}` : `--${option}`);
  const near = context.options.find((option) => distance(option, name) <= 2);
  return `unknown option ${flag(name)}${near === undefined ? "" : ` (did you mean ${flag(near)}?)`}`;
}
