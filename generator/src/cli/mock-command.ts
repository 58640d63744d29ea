/**
 * `rcp-gen mock`: an RCP engine made from a schema folder alone (../mock/mock-server.ts), for
 * building and testing a client before the engine exists and against bad servers.
 *   rcp-gen mock [options] --stdio       NDJSON on stdin/stdout (§5.1)
 *   rcp-gen mock [options] --port <n>    HTTP + SSE on 127.0.0.1, base /rcp (§5.2); the first stdout line is the URL
 * On exit (EOF, shutdown, Ctrl-C) it prints what the clients did wrong on stderr, with spec
 * sections, and with --report writes it as JSON. Exit codes: 0 served, 2 a usage error.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { CommandModule, InferredOptionTypes } from "yargs";
import { LEVELS } from "../conform/check.js";
import { findConfig } from "./config.js";
import { choiceOption, portNumber, repeatedOption, switchOption, valueOption } from "./options.js";
import { schemaFolderSetting } from "./schema-setting.js";
import { UsageError } from "./usage-mistakes.js";
import type { ClientReport, FailRule, MockOptions } from "../mock/index.js";

export const mockOptions = {
  stdio: switchOption("Serve NDJSON on stdin/stdout (§5.1)"),
  port: valueOption(
    "Serve HTTP + SSE on 127.0.0.1:<port>, base /rcp (0: a free port); the first stdout line is the URL",
  ),
  host: { ...valueOption("The interface --port binds"), default: "127.0.0.1" },
  schema: valueOption(
    `The schema folder (default: the project's, as rcp-gen.config.json or package.json's "rcp-gen" key says; else the RCP/1 schema rcp-gen ships)`,
  ),
  examples: valueOption(
    "Examples (<shape>/<name>.json) results are taken from (default: the project's \"examples\" when its schema is used; else each schema's own)",
  ),
  capabilities: valueOption(
    "A JSON file of the capabilities to advertise (default: the first initialize result example's, else sampled)",
  ),
  level: choiceOption("The conformance level to declare (default L0)", LEVELS),
  seed: valueOption("Seeds sampled results and fault rates, so runs repeat (default 1)"),
  latency: valueOption("How long each call takes, its progress spread over it: 200ms, 1.5s (default 0)"),
  fail: repeatedOption(
    "Fail a method with an error code: retrieve=-32014, or retrieve=-32014@0.1 for a share of calls (repeatable; * for every method)",
  ),
  stall: repeatedOption(
    "Never answer this method until the call is cancelled or past its deadline (repeatable; * for every method)",
  ),
  "drop-after": valueOption("Drop the connection after this many progress frames of a call (the mock exits)"),
  report: valueOption("Write the client report (violations with spec sections) to this JSON file on exit"),
} as const;

type MockArguments = InferredOptionTypes<typeof mockOptions>;

export const mockCommand: CommandModule<object, MockArguments> = {
  command: "mock",
  describe: "Serve an RCP engine made from the schema alone, and report what its clients do wrong",
  builder: (yargs) =>
    yargs
      .usage(
        [
          "$0 mock [options] --stdio        serve NDJSON on stdin/stdout",
          "$0 mock [options] --port <n>     serve HTTP + SSE on 127.0.0.1 (0: a free port)",
        ].join("\n"),
      )
      .options(mockOptions)
      .epilogue(
        'Per request, _meta["x-mock"] takes { "fail": <code>, "stall": true, "dropAfter": <n>, "latencyMs": <ms> }. Exit codes: 0 served, 2 usage error.',
      ),
  handler: async (argv) => {
    if (argv.stdio === true && argv.port !== undefined) throw new UsageError("give either --stdio or --port, not both");
    if (argv.stdio !== true && argv.port === undefined) throw new UsageError("give --stdio or --port <n>");
    const port = portNumber("port", argv.port);
    const { createMockServer, parseFailRule } = await import("../mock/index.js");
    const fail = (argv.fail ?? []).map((text) => {
      const rule = parseFailRule(text);
      if (typeof rule === "string") throw new UsageError(rule);
      return rule;
    });
    const options: MockOptions = {
      ...sourceOf(argv),
      seed: integer("seed", argv.seed) ?? 1,
      latencyMs: duration(argv.latency),
      level: argv.level ?? "L0",
      faults: { fail: fail satisfies FailRule[], stall: argv.stall ?? [], ...dropAfter(argv["drop-after"]) },
      ...(argv.capabilities === undefined ? {} : { capabilities: readJsonObject("capabilities", argv.capabilities) }),
    };
    let finish: (() => Promise<void>) | undefined;
    const mock = createMockServer({ ...options, onDrop: () => void finish?.().then(() => process.exit(0)) });
    const done = (): void => writeReport(mock.report(), argv.report);
    const node = await import("@rcp-gen/runtime/node");
    if (port === undefined) {
      // serveStdio exits the process at EOF or after shutdown, and a client may end it with a
      // signal (the reference clients do): the report is written on the way out either way.
      process.once("exit", done);
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
      finish = () => {
        process.removeListener("exit", done);
        done();
        return Promise.resolve();
      };
      await node.serveStdio(mock.server);
      return;
    }
    const listening = await node.listen(mock.server, { port, host: argv.host });
    process.stdout.write(`${listening.url}\n`);
    finish = async () => {
      await listening.close();
      done();
    };
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    await finish();
  },
};

/** The schema and examples: as given, else the project's settings (the examples only with the project's schema). */
function sourceOf(argv: MockArguments): Pick<MockOptions, "schema" | "examples"> {
  if (argv.schema !== undefined)
    return { schema: argv.schema, ...(argv.examples === undefined ? {} : { examples: argv.examples }) };
  const examples = argv.examples ?? findConfig(process.cwd())?.config.examples;
  return { schema: schemaFolderSetting(process.cwd()), ...(examples === undefined ? {} : { examples }) };
}

/** The summary on stderr, and the JSON file when asked. */
function writeReport(report: ClientReport, file: string | undefined): void {
  if (file !== undefined) writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const count = report.violations.length;
  const lines = [`rcp-gen mock: ${count} client violation${count === 1 ? "" : "s"} in ${report.messages} messages`];
  for (const violation of report.violations) {
    const call =
      violation.method === undefined
        ? ""
        : ` ${violation.method}${violation.id === undefined ? "" : ` #${String(violation.id)}`}`;
    lines.push(
      `  ${violation.section}  ${violation.rule}${call}: ${violation.message} (answered: ${violation.answer})`,
    );
  }
  process.stderr.write(`${lines.join("\n")}\n`);
}

function integer(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) throw new UsageError(`--${flag} must be an integer, got ${text}`);
  return value;
}

function dropAfter(text: string | undefined): { dropAfter?: number } {
  const value = integer("drop-after", text);
  if (value !== undefined && value < 0) throw new UsageError(`--drop-after must be 0 or more, got ${text}`);
  return value === undefined ? {} : { dropAfter: value };
}

/** `200ms`, `1.5s`, `250` (milliseconds). */
export function duration(text: string | undefined): number {
  if (text === undefined) return 0;
  const match = /^(\d*\.?\d+)(ms|s)?$/.exec(text.trim());
  if (match === null) throw new UsageError(`--latency takes a duration such as 200ms or 1.5s, got ${text}`);
  return Number(match[1]) * (match[2] === "s" ? 1000 : 1);
}

function readJsonObject(flag: string, file: string): Record<string, never> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--${flag}: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`--${flag} must name a file holding a JSON object`);
  return value as Record<string, never>;
}
