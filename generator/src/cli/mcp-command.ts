/**
 * `rcp-gen mcp`: any RCP engine as an MCP server, one tool per method it advertises, the tools
 * built from the schema folder (so a method added to the schema is a tool, with no code).
 *   rcp-gen mcp [options] -- <command> [args...]   an engine this command starts (stdio, §5.1)
 *   rcp-gen mcp [options] --http <url>             an engine at its RCP base URL (§5.2)
 * MCP is served on stdio (what an MCP host's config launches), or with --listen <port> as
 * Streamable HTTP at /mcp on 127.0.0.1. Exit codes: 0 after the MCP client left, 2 a usage
 * error or an engine that could not be reached.
 */
import { parseArgs } from "node:util";
import type * as mcpEntry from "@rcp-gen/runtime/mcp";
import { conformProtocol } from "../conform/protocol.js";
import { loadSchemaFolder } from "../load/loader.js";
import { mcpToolsOf } from "../mcp/tools.js";
import { buildModel } from "../model/model.js";
import { rcpSchemaDir } from "../shipped.js";
import { exitCode, UsageError, type Command } from "./usage.js";
import { generatorVersion } from "./version.js";

const USAGE = `Usage:
  rcp-gen mcp [options] -- <command> [args...]   bridge a stdio engine (started by the bridge)
  rcp-gen mcp [options] --http <url>             bridge an HTTP engine at its RCP base URL

Options:
  --listen <port>     serve Streamable HTTP at http://127.0.0.1:<port>/mcp (0: a free port,
                      printed on stderr) instead of MCP on stdio
  --host <host>       the interface --listen binds (default 127.0.0.1)
  --allowed-host <h>  a Host name HTTP clients may use besides the loopback names (repeatable)
  --schema <dir>      the schema folder (default: the RCP/1 schema rcp-gen ships)
  --cwd <dir>         the working directory of a stdio engine

Every method the engine advertises is a tool named after it (index/add: index_add); progress,
log levels, cancellation and errors cross both ways. Needs @modelcontextprotocol/server 2
(and @modelcontextprotocol/node 2 for --listen) installed beside rcp-gen.`;

export const command: Command = { run: mcpCommand };

export interface McpCommandOptions {
  /** The engine: a stdio command, or an HTTP base URL. */
  engine: { command: readonly string[]; cwd?: string } | { http: string };
  /** Streamable HTTP on this port instead of stdio. */
  listen?: { port: number; host: string; allowedHosts: readonly string[] };
  schema?: string;
}

function parse(argv: readonly string[]): McpCommandOptions | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        http: { type: "string" },
        listen: { type: "string" },
        host: { type: "string", default: "127.0.0.1" },
        "allowed-host": { type: "string", multiple: true, default: [] },
        schema: { type: "string" },
        cwd: { type: "string" },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message, "rcp-gen mcp --help lists the options");
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if ((values.http === undefined) === (positionals.length === 0))
    throw new UsageError("give either --http <url> or -- <command> [args...]", "rcp-gen mcp -- node server.js --stdio");
  const port = values.listen === undefined ? undefined : Number(values.listen);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535))
    throw new UsageError(`--listen must be a port in 0..65535, got ${values.listen}`, "--listen 0 picks a free port");
  return {
    engine:
      values.http !== undefined
        ? { http: values.http }
        : { command: positionals, ...(values.cwd === undefined ? {} : { cwd: values.cwd }) },
    ...(port === undefined ? {} : { listen: { port, host: values.host, allowedHosts: values["allowed-host"] } }),
    ...(values.schema === undefined ? {} : { schema: values.schema }),
  };
}

async function mcpCommand(argv: readonly string[]): Promise<number> {
  const options = parse(argv);
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`);
    return exitCode.ok;
  }
  return runMcpBridge(options);
}

/** Connects to the engine, serves it as MCP until the client leaves (stdio) or a signal (HTTP), then closes it. */
export async function runMcpBridge(options: McpCommandOptions): Promise<number> {
  const folder = loadSchemaFolder(options.schema ?? rcpSchemaDir());
  const tools = mcpToolsOf(buildModel(folder));
  const [runtime, mcp] = await Promise.all([import("@rcp-gen/runtime"), loadMcp()]);
  const transport =
    "http" in options.engine
      ? runtime.httpClientTransport({ url: options.engine.http })
      : await stdioTransport(options.engine);
  const engine = new runtime.BaseClient({
    protocol: conformProtocol(folder),
    transport,
    clientInfo: { name: "rcp-gen-mcp", version: generatorVersion },
  });
  try {
    await engine.connect();
  } catch (error) {
    await engine.close();
    console.error(`rcp-gen mcp: the engine did not initialize: ${(error as Error).message}`);
    return exitCode.error;
  }
  const bridge = new mcp.McpBridge({ engine, tools });
  if (options.listen === undefined) {
    const stdio = mcp.serveMcpStdio(bridge);
    await Promise.race([stdio.closed, signalled()]);
    await stdio.close();
  } else {
    const { port, host, allowedHosts } = options.listen;
    const listening = await mcp.listenMcp(bridge, {
      port,
      host,
      allowedHosts: ["localhost", "127.0.0.1", "[::1]", ...allowedHosts],
    });
    console.error(`rcp-gen mcp: serving ${bridge.tools.length} tools at ${listening.url}`);
    await signalled();
    await listening.close();
  }
  await engine.close();
  return exitCode.ok;
}

async function loadMcp(): Promise<typeof mcpEntry> {
  try {
    return await import("@rcp-gen/runtime/mcp");
  } catch (error) {
    throw new UsageError(
      `the MCP bridge could not load: ${(error as Error).message}`,
      "npm install @modelcontextprotocol/server@2 @modelcontextprotocol/node@2 beside rcp-gen",
    );
  }
}

async function stdioTransport(engine: { command: readonly string[]; cwd?: string }) {
  const [program, ...args] = engine.command;
  const { stdioClientTransport } = await import("@rcp-gen/runtime/node");
  // The engine's stderr is ours: an MCP host shows it in its server log; stdout stays MCP's.
  return stdioClientTransport({ command: program!, args, ...(engine.cwd === undefined ? {} : { cwd: engine.cwd }) });
}

function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}
