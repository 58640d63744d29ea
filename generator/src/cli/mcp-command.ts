/**
 * `rcp-gen mcp`: any RCP engine as an MCP server, one tool per method it advertises, the tools
 * built from the schema folder (so a method added to the schema is a tool, with no code).
 *   rcp-gen mcp [options] -- <command> [args...]   an engine this command starts (stdio, §5.1)
 *   rcp-gen mcp [options] --http <url>             an engine at its RCP base URL (§5.2)
 * MCP is served on stdio (what an MCP host's config launches), or with --listen <port> as
 * Streamable HTTP at /mcp on 127.0.0.1. Exit codes: 0 after the MCP client left, 2 a usage
 * error or an engine that could not be reached.
 */
import type { CommandModule, InferredOptionTypes } from "yargs";
import { engineOptions, repeatedOption, portNumber, switchOption, valueOption, type EngineTarget } from "./options.js";
import { checkedEngineTarget } from "./http-base.js";
import { schemaFolderSetting, schemaOption } from "./schema-setting.js";
import { exitCode, UsageError } from "./usage-mistakes.js";
import { generatorVersion } from "./version.js";
import type * as RuntimeMcp from "@rcp-gen/runtime/mcp";

export const mcpOptions = {
  ...engineOptions,
  listen: valueOption(
    "Serve Streamable HTTP at http://127.0.0.1:<port>/mcp (0: a free port, printed on stderr) instead of MCP on stdio",
  ),
  host: { ...valueOption("The interface --listen binds"), default: "127.0.0.1" },
  "allowed-host": repeatedOption("A Host name HTTP clients may use besides the loopback names (repeatable)"),
  resumable: switchOption(
    "With --listen: a 2025 session's client may resume a cut stream with Last-Event-ID (frames kept in memory)",
  ),
  schema: schemaOption,
} as const;

export const mcpCommand: CommandModule<object, InferredOptionTypes<typeof mcpOptions>> = {
  command: "mcp",
  describe: "Serve an RCP engine as an MCP server (stdio, or Streamable HTTP at /mcp)",
  builder: (yargs) =>
    yargs
      .usage(
        [
          "$0 mcp [options] -- <command> [args...]   bridge a stdio engine (started by the bridge)",
          "$0 mcp [options] --http <url>             bridge an HTTP engine at its RCP base URL",
        ].join("\n"),
      )
      .options(mcpOptions)
      .epilogue(
        "Every method the engine advertises is a tool named after it (index/add: index_add); progress, log levels, cancellation and errors cross both ways. Needs @modelcontextprotocol/server 2 (and @modelcontextprotocol/node 2 for --listen) installed beside rcp-gen.",
      ),
  handler: async (argv) => {
    const engine = await checkedEngineTarget(argv);
    const port = portNumber("listen", argv.listen);
    process.exitCode = await runMcpBridge({
      engine,
      ...(port === undefined
        ? {}
        : {
            listen: {
              port,
              host: argv.host,
              allowedHosts: argv["allowed-host"] ?? [],
              resumable: argv.resumable === true,
            },
          }),
      schema: argv.schema ?? schemaFolderSetting(process.cwd()),
    });
  },
};

interface McpCommandOptions {
  /** The engine: a stdio command, or an HTTP base URL. */
  engine: EngineTarget;
  /** Streamable HTTP on this port instead of stdio. */
  listen?: { port: number; host: string; allowedHosts: readonly string[]; resumable: boolean };
  /** The schema folder the tools are built from. */
  schema: string;
}

/** Connects to the engine, serves it as MCP until the client leaves (stdio) or a signal (HTTP), then closes it. */
async function runMcpBridge(options: McpCommandOptions): Promise<number> {
  const [{ conformProtocol }, { loadSchemaFolder }, { mcpToolsOf }, { buildModel }] = await Promise.all([
    import("../conform/protocol.js"),
    import("../load/loader.js"),
    import("../targets/mcp-tools.js"),
    import("../model/model.js"),
  ]);
  const folder = loadSchemaFolder(options.schema);
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
    const { port, host, allowedHosts, resumable } = options.listen;
    const listening = await mcp.listenMcp(bridge, {
      port,
      host,
      allowedHosts: ["localhost", "127.0.0.1", "[::1]", ...allowedHosts],
      resumable,
    });
    console.error(`rcp-gen mcp: serving ${bridge.tools.length} tools at ${listening.url}`);
    await signalled();
    await listening.close();
  }
  await engine.close();
  return exitCode.ok;
}

async function loadMcp(): Promise<typeof RuntimeMcp> {
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
