/**
 * A conformance run: the table's checks against one server, phase by phase. The handshake
 * runs on a fresh session (over stdio, its own process), everything else on one session
 * initialized once; a stdio server that dies mid-run is restarted so one crash fails the
 * checks it caused, not all the ones after it.
 */
import { findConfig } from "../cli/config.js";
import { schemaFolderSetting } from "../cli/schema-setting.js";
import { readExamples } from "../targets/shared/examples.js";
import { loadSchemaFolder } from "../load/loader.js";
import {
  LEVELS,
  skip,
  type CaseVerdict,
  type CheckEntry,
  type CheckResult,
  type Level,
  type Phase,
  type Verdict,
} from "./check.js";
import { checkTable } from "./checks/index.js";
import { ConformContext, outcome, resultOf, type ConformOptions } from "./context.js";
import { HttpSession } from "./http-session.js";
import { chooseQuery, givenOrFirst } from "./probe-query.js";
import { conformProtocol } from "./protocol.js";
import { certify, type ConformReport } from "./report.js";
import { Ledger, type Session } from "./session.js";
import { StdioSession } from "./stdio-session.js";
import { HttpWire } from "./wire/http-wire.js";
import { StdioWire, type StdioCommand } from "./wire/stdio-wire.js";

export type ConformTarget = { readonly command: readonly string[]; readonly cwd?: string } | { readonly http: string };

export interface ConformRunOptions extends Partial<ConformOptions> {
  /**
   * The schema folder; default as every command's (cli/schema-setting.ts): the project's
   * settings, else ./schema, else the RCP/1 schema rcp-gen ships.
   */
  readonly schema?: string;
  /**
   * A folder of examples (`<shape>/<name>.json`, as the docs targets read) whose params
   * examples the probes send first; default the project's `examples` when its schema is used.
   */
  readonly examples?: string;
  /**
   * The level the server is held to; default the level it declares (`_meta.conformance`).
   * Checks of higher levels are skipped; a server declaring no level gets every check.
   */
  readonly level?: Level;
}

/**
 * The schema, examples and query a run uses: as given, else the project's settings (every
 * command's default, cli/schema-setting.ts, and conform.query), else a query chosen from the
 * engine (probe-query.ts).
 */
function sources(options: ConformRunOptions): {
  schema: string;
  examples?: string | undefined;
  query?: { text: string; source: string } | undefined;
} {
  const found = findConfig(process.cwd());
  const project = found?.config;
  const setting = project?.conform?.query;
  const query =
    options.query !== undefined
      ? { text: options.query, source: "given" }
      : setting === undefined
        ? undefined
        : {
            text: setting,
            source: `${found!.keyPrefix === "" ? "" : `${found!.keyPrefix}.`}conform.query in ${found!.file}`,
          };
  if (options.schema !== undefined) return { schema: options.schema, examples: options.examples, query };
  return { schema: schemaFolderSetting(process.cwd()), examples: options.examples ?? project?.examples, query };
}

const DEFAULTS: ConformOptions = { timeoutMs: 5000 };

export async function runConformance(target: ConformTarget, options: ConformRunOptions = {}): Promise<ConformReport> {
  const started = performance.now();
  const settings: ConformOptions = { ...DEFAULTS, ...withoutUndefined(options) };
  const source = sources(options);
  const folder = loadSchemaFolder(source.schema);
  const examples = source.examples === undefined ? undefined : readExamples(source.examples);
  const protocol = conformProtocol(folder);
  const ledger = new Ledger();
  const open = opener(target, ledger, settings.timeoutMs);
  const transport = "http" in target ? "http" : "stdio";
  const query = givenOrFirst(source.query, folder, examples);
  const ctx = new ConformContext(transport, protocol, folder, settings, ledger, await open(), open, query, examples);
  const entries = checkTable.filter((entry) => entry.on === undefined || entry.on === transport);
  const results: CheckResult[] = [];
  const notes: string[] = [];

  const tested = () => options.level ?? LEVELS.find((level) => level === ctx.declaredLevel);
  const phase = (name: Phase) => runPhase(ctx, entries, name, tested(), results, notes);
  await phase("handshake");
  await ctx.session.close();
  ctx.session = await open();
  await initialize(ctx);
  if (ctx.advertises("retrieve"))
    ctx.query = await chooseQuery(source.query, folder, examples, (text) => ctx.firstHitText(text));
  await phase("main");
  await phase("ending");
  await ctx.session.close();

  return certify({
    transport,
    target: "http" in target ? target.http : target.command.join(" "),
    schema: folder.dir,
    server: serverOf(ctx),
    declaredLevel: ctx.declaredLevel,
    level: tested() ?? null,
    query: ctx.query,
    results,
    notes: [...notes, ...ctx.notes],
    milliseconds: Math.round(performance.now() - started),
  });
}

function opener(target: ConformTarget, ledger: Ledger, timeoutMs: number): () => Promise<Session> {
  if ("http" in target) {
    const wire = new HttpWire(target.http, timeoutMs);
    return () => Promise.resolve(new HttpSession(wire, ledger));
  }
  const [command, ...args] = target.command;
  if (command === undefined) throw new Error("no server command to run");
  const spec: StdioCommand = { command, args, ...(target.cwd === undefined ? {} : { cwd: target.cwd }) };
  return async () => new StdioSession(await StdioWire.start(spec), ledger, timeoutMs);
}

/** The main session's initialize; over HTTP a failure is no obstacle (each request stands alone, §5.2). */
async function initialize(ctx: ConformContext): Promise<void> {
  const exchange = await ctx.call("initialize", {
    protocolVersion: ctx.protocol.version,
    client: { name: "rcp-gen-conform", version: "1" },
    capabilities: {},
  });
  const result = resultOf(exchange);
  if (result === undefined) {
    if (ctx.transport === "stdio") ctx.initializeFailure = `initialize: ${outcome(exchange)}`;
    return;
  }
  if (typeof result.capabilities === "object" && result.capabilities !== null)
    ctx.capabilities = result.capabilities as Record<string, unknown>;
  ctx.declaredLevel = (result._meta as { conformance?: unknown } | undefined)?.conformance ?? ctx.declaredLevel;
  ctx.serverInfo = result.server;
}

async function runPhase(
  ctx: ConformContext,
  entries: readonly CheckEntry[],
  phase: Phase,
  level: Level | undefined,
  results: CheckResult[],
  notes: string[],
): Promise<void> {
  for (const entry of entries.filter((candidate) => candidate.phase === phase)) {
    if (level !== undefined && LEVELS.indexOf(entry.level) > LEVELS.indexOf(level)) {
      results.push(resultOfEntry(entry, skip(`above ${level}, the level under test`)));
      continue;
    }
    if (phase !== "handshake" && ctx.initializeFailure !== undefined) {
      results.push(
        resultOfEntry(entry, { status: "fail", detail: `the server did not initialize (${ctx.initializeFailure})` }),
      );
      continue;
    }
    if (phase === "main") await reviveIfDead(ctx, notes, results[results.length - 1]?.id);
    let outcomes: Verdict | CaseVerdict[];
    try {
      outcomes = await entry.run(ctx);
    } catch (error) {
      outcomes = { status: "fail", detail: `the check could not complete: ${(error as Error).message}` };
    }
    if (Array.isArray(outcomes)) {
      if (outcomes.length === 0) results.push(resultOfEntry(entry, skip("nothing of this kind to check")));
      for (const item of outcomes) {
        const { key, title, section, should } = item;
        const one = { ...entry, id: `${entry.id}:${key}`, title, section: section ?? entry.section };
        results.push(resultOfEntry(should === true ? { ...one, should } : one, item));
      }
    } else results.push(resultOfEntry(entry, outcomes));
  }
}

/** A stdio server that exited mid-run is started again and initialized, so later checks still run. */
async function reviveIfDead(ctx: ConformContext, notes: string[], during: string | undefined): Promise<void> {
  if (!(ctx.session instanceof StdioSession) || ctx.session.wire.exited === undefined) return;
  const { code, signal } = ctx.session.wire.exited;
  const stderr = ctx.session.wire.stderrTail.trim().split("\n").slice(-3).join(" | ");
  notes.push(
    `the server exited (${signal ?? `code ${code}`}) during ${during ?? "the run"} and was started again${stderr ? `; its stderr ended: ${stderr}` : ""}`,
  );
  ctx.session = await ctx.openSession();
  await initialize(ctx);
}

function resultOfEntry(entry: CheckEntry, verdict: Verdict): CheckResult {
  const status = verdict.status === "fail" && entry.should === true ? "warn" : verdict.status;
  return {
    id: entry.id,
    section: entry.section,
    level: entry.level,
    must: entry.should !== true,
    title: entry.title,
    status,
    ...(verdict.detail === undefined || verdict.detail === "" ? {} : { detail: verdict.detail }),
  };
}

function serverOf(ctx: ConformContext): { name?: string; version?: string } {
  const server = ctx.serverInfo as { name?: unknown; version?: unknown } | undefined;
  return {
    ...(typeof server?.name === "string" ? { name: server.name } : {}),
    ...(typeof server?.version === "string" ? { version: server.version } : {}),
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as Partial<T>;
}
