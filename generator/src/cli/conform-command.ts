/**
 * `rcp-gen conform`: runs the conformance suite against a server and prints the report.
 *   rcp-gen conform [options] -- <command> [args...]     a stdio server (§5.1)
 *   rcp-gen conform [options] --http <base url>          an HTTP server (§5.2)
 * Exit codes: 0 the declared level holds, 1 it does not, 2 a usage error or no server to test,
 * 3 inconclusive: no check failed, but the probe query found no hits, so the level is not certified.
 */
import type { CommandModule, InferredOptionTypes } from "yargs";
import { LEVELS } from "../conform/check.js";
import { choiceOption, engineOptions, jsonOption, valueOption } from "./options.js";
import { checkedEngineTarget } from "./http-base.js";
import { schemaOption } from "./schema-setting.js";
import { exitCode, UsageError } from "./usage-mistakes.js";

export const conformOptions = {
  ...engineOptions,
  schema: schemaOption,
  examples: valueOption(
    "Examples (<shape>/<name>.json) whose required params the probes send (default: the project's \"examples\" when its schema is used; else each schema's own)",
  ),
  level: choiceOption(
    "The level the server must hold (default: the level it declares); checks of higher levels are skipped",
    LEVELS,
  ),
  json: jsonOption,
  query: valueOption(
    "The query of retrieval calls (default: conform.query in the project's settings, else the first of the schema's retrieve examples and \"retrieval\" that the server finds hits for)",
  ),
  "slow-meta": valueOption(
    `_meta members that make calls slow, e.g. '{"x-delayMs":200}': cancel and deadline checks then require -32006 and -32014`,
  ),
  timeout: valueOption("How long to wait for any one answer, in milliseconds (default 5000)"),
} as const;

/** Inconclusive is neither a pass nor the engine shown wrong, so a CI script can tell it apart. */
const CONFORM_EXIT = { holds: 0, fails: 1, inconclusive: 3 } as const;

type ConformArguments = InferredOptionTypes<typeof conformOptions>;

export const conformCommand: CommandModule<object, ConformArguments> = {
  command: "conform",
  describe: "Run the conformance suite against a server and print a verdict per level",
  builder: (yargs) =>
    yargs
      .usage(
        [
          "$0 conform [options] -- <command> [args...]   test a stdio server (started by the suite)",
          "$0 conform [options] --http <url>             test an HTTP server at its RCP base URL",
        ].join("\n"),
      )
      .options(conformOptions)
      .epilogue(
        "Exit codes: 0 the server's declared level (_meta.conformance, or --level) holds, 1 it does not, 2 usage error, 3 inconclusive (no check failed, but the probe query found no hits: set conform.query or --query).",
      ),
  handler: async (argv) => {
    const target = await checkedEngineTarget(argv);
    const timeoutMs = argv.timeout === undefined ? undefined : Number(argv.timeout);
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
      throw new UsageError(`--timeout must be a positive integer of milliseconds, got ${argv.timeout}`);
    const slowMeta = argv["slow-meta"] === undefined ? undefined : jsonObject("slow-meta", argv["slow-meta"]);
    const [{ runConformance }, { outcomeAt, renderTable }] = await Promise.all([
      import("../conform/run.js"),
      import("../conform/report.js"),
    ]);
    try {
      const report = await runConformance(target, {
        ...(argv.schema === undefined ? {} : { schema: argv.schema }),
        ...(argv.examples === undefined ? {} : { examples: argv.examples }),
        ...(argv.level === undefined ? {} : { level: argv.level }),
        ...(argv.query === undefined ? {} : { query: argv.query }),
        ...(slowMeta === undefined ? {} : { slowMeta }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
      const level = argv.level ?? LEVELS.find((declared) => declared === report.declaredLevel);
      process.exitCode = level === undefined ? 1 : CONFORM_EXIT[outcomeAt(report, level)];
    } catch (error) {
      process.stderr.write(`rcp-gen conform: ${(error as Error).message}\n`);
      process.exitCode = exitCode.error;
    }
  },
};

function jsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`--${flag} must be a JSON object, got ${text}`);
  return value as Record<string, unknown>;
}
