/**
 * Every rcp-gen command's flags, parsed with node:util's parseArgs (one parser for the whole
 * command line; yargs cost a cold start a fifth of a CPU-second to load), its mistakes said as
 * every command says them: one line naming the flag as typed (usage.ts), then the command's hint.
 */
import type { ParseArgsConfig } from "node:util";
import { UsageError } from "./usage.js";

type FlagOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * Runs `parse` (node:util's parseArgs over `options`, called at the command: its result is typed
 * there) and turns each of its failures into a UsageError with `hint`.
 */
export function parsedFlags<Parsed>(options: FlagOptions, hint: string, parse: () => Parsed): Parsed {
  try {
    return parse();
  } catch (error) {
    throw describeMistake(error as Error & { code?: string }, options, hint);
  }
}

/** node:util's messages, as one line naming the flag as typed. */
function describeMistake(error: Error & { code?: string }, options: FlagOptions, hint: string): UsageError {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? "";
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return new UsageError(`unknown option ${quoted}`, hint);
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return new UsageError(`unexpected argument "${quoted}"`, hint);
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      const flag = /^(--?[\w-]+)/.exec(quoted)?.[1] ?? quoted;
      const takesNoValue = options[flag.replace(/^--?/, "")]?.type === "boolean";
      return new UsageError(takesNoValue ? `${flag} takes no value` : `${flag} needs a value`, hint);
    }
    default:
      throw error;
  }
}
