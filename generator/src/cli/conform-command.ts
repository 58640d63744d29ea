/**
 * `rcp-gen conform`: runs the conformance suite against a server and prints the report.
 *   rcp-gen conform [options] -- <command> [args...]     a stdio server (§5.1)
 *   rcp-gen conform [options] --http <base url>          an HTTP server (§5.2)
 * Exit codes: 0 the declared level holds, 1 it does not, 2 a usage error or no server to test.
 */
import { parseArgs } from "node:util";
import { LEVELS } from "../conform/check.js";
import { isCertified, renderTable } from "../conform/report.js";
import { runConformance, type ConformTarget } from "../conform/run.js";
import type { Command } from "./usage.js";

const USAGE = `Usage:
  rcp-gen conform [options] -- <command> [args...]   test a stdio server (started by the suite)
  rcp-gen conform [options] --http <url>             test an HTTP server at its RCP base URL

Options:
  --schema <dir>      the schema folder (default: the project's, as rcp-gen.config.json or
                      package.json's "rcp-gen" key says; else the RCP/1 schema rcp-gen ships)
  --examples <dir>    examples (<shape>/<name>.json) whose required params the probes send (default:
                      the project's "examples" when its schema is used; else each schema's own)
  --level <L0|L1|L2>  the level the server must hold (default: the level it declares); checks of
                      higher levels are skipped
  --json              print the report as JSON instead of a table
  --query <text>      the query of retrieval calls (default: words of the server's own first hit)
  --slow-meta <json>  _meta members that make calls slow, e.g. '{"x-delayMs":200}': cancel and
                      deadline checks then require -32006 and -32014
  --timeout <ms>      how long to wait for any one answer (default 5000)
  --cwd <dir>         the working directory of a stdio server

Exit codes: 0 the server's declared level (_meta.conformance, or --level) holds, 1 it does not, 2 usage error.`;

const EXIT_USAGE = 2;

export const command: Command = { run: conformCommand };

async function conformCommand(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        http: { type: "string" },
        schema: { type: "string" },
        examples: { type: "string" },
        level: { type: "string" },
        json: { type: "boolean", default: false },
        query: { type: "string" },
        "slow-meta": { type: "string" },
        timeout: { type: "string" },
        cwd: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ((values.http === undefined) === (positionals.length === 0))
    return usage("give either --http <url> or -- <command> [args...], not both");
  const target: ConformTarget =
    values.http !== undefined
      ? { http: values.http }
      : { command: positionals, ...(values.cwd === undefined ? {} : { cwd: values.cwd }) };
  const level = LEVELS.find((name) => name === values.level);
  if (values.level !== undefined && level === undefined)
    return usage(`--level must be one of ${LEVELS.join(", ")}, got ${values.level}`);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
    return usage(`--timeout must be a positive integer of milliseconds, got ${values.timeout}`);
  let slowMeta: Record<string, unknown> | undefined;
  if (values["slow-meta"] !== undefined) {
    try {
      slowMeta = JSON.parse(values["slow-meta"]) as Record<string, unknown>;
    } catch {
      return usage(`--slow-meta must be a JSON object, got ${values["slow-meta"]}`);
    }
    if (typeof slowMeta !== "object" || slowMeta === null || Array.isArray(slowMeta))
      return usage(`--slow-meta must be a JSON object, got ${values["slow-meta"]}`);
  }
  try {
    const report = await runConformance(target, {
      ...(values.schema === undefined ? {} : { schema: values.schema }),
      ...(values.examples === undefined ? {} : { examples: values.examples }),
      ...(level === undefined ? {} : { level }),
      ...(values.query === undefined ? {} : { query: values.query, queryGiven: true }),
      ...(slowMeta === undefined ? {} : { slowMeta }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderTable(report));
    if (level !== undefined) return isCertified(report, level) ? 0 : 1;
    return report.declarationHolds ? 0 : 1;
  } catch (error) {
    process.stderr.write(`rcp-gen conform: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
}

/** One line saying what is wrong and one hint, never the whole usage (as every rcp-gen command). */
function usage(problem: string): number {
  process.stderr.write(`rcp-gen conform: ${problem}\nhint: rcp-gen conform --help lists the options\n`);
  return EXIT_USAGE;
}
