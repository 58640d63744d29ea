/**
 * `rcp-gen inspect`'s core: connect to the engine, serve the page on 127.0.0.1, print its URL
 * (with the session token) as the first line of stdout, and run until `signal` aborts or the
 * process is interrupted. Resolves to the exit code.
 */
import { spawn } from "node:child_process";
import type { ProtocolDescriptor } from "@rcp-gen/runtime";
import { generatorVersion } from "../cli/version.js";
import { conformProtocol } from "../conform/protocol.js";
import { runConformance } from "../conform/run.js";
import { loadSchemaFolder } from "../load/loader.js";
import { buildModel } from "../model/model.js";
import { rcpSchemaDir } from "../shipped.js";
import { connectEngine, type Engine, type EngineTarget, type RecordedFrame } from "./engine.js";
import { newSessionToken } from "./guard.js";
import { methodViews } from "./schema-view.js";
import { startInspectorServer, type InspectorServer } from "./server.js";

export type { EngineTarget };

export interface InspectOptions {
  readonly target: EngineTarget;
  /** The schema folder; default the RCP/1 schema rcp-gen ships. */
  readonly schema?: string;
  /** Default 0: a free port the OS picks. */
  readonly port?: number;
  /** Open the page in the default browser. */
  readonly open?: boolean;
  /** Stops the inspector; default SIGINT or SIGTERM. */
  readonly signal?: AbortSignal;
  /** Where the URL and notes go; default process.stdout / process.stderr. */
  readonly print?: (line: string) => void;
  readonly warn?: (line: string) => void;
}

export async function inspect(options: InspectOptions): Promise<number> {
  const print = options.print ?? ((line) => process.stdout.write(`${line}\n`));
  const warn = options.warn ?? ((line) => process.stderr.write(`rcp-gen inspect: ${line}\n`));
  const folder = loadSchemaFolder(options.schema ?? rcpSchemaDir());
  const protocol: ProtocolDescriptor = conformProtocol(folder);
  const methods = methodViews(buildModel(folder));
  const target = "http" in options.target ? options.target.http : options.target.command.join(" ");
  let server: InspectorServer | undefined;
  let engine: Engine;
  try {
    engine = await connectEngine(options.target, {
      protocol,
      clientVersion: generatorVersion,
      onFrame: (frame: RecordedFrame) => server?.publish(frame),
    });
  } catch (error) {
    warn(`could not connect to ${target}: ${(error as Error).message}`);
    return 2;
  }
  try {
    server = await startInspectorServer({
      engine,
      protocol,
      methods,
      transport: "http" in options.target ? "http" : "stdio",
      target,
      token: newSessionToken(),
      ...(options.port === undefined ? {} : { port: options.port }),
      conform: () => runConformance(options.target, { schema: folder.dir }),
    });
  } catch (error) {
    await engine.close();
    warn(`could not start the server: ${(error as Error).message}`);
    return 2;
  }
  print(server.url);
  warn(`connected to ${target}; open the URL above (it holds this session's token). Ctrl-C stops.`);
  if (options.open === true) openInBrowser(server.url);
  await stopped(options.signal);
  await server.close();
  await engine.close();
  return 0;
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal !== undefined)
    return signal.aborted
      ? Promise.resolve()
      : new Promise((resolve) => signal.addEventListener("abort", () => resolve()));
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}

/** The platform's own opener; a failure to open is only a note, the URL is printed anyway. */
function openInBrowser(url: string): void {
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", () => process.stderr.write(`rcp-gen inspect: could not open a browser; open ${url}\n`));
  child.unref();
}
