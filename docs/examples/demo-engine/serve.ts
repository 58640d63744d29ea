/**
 * Runs the demo engine, or a federating server in front of other engines:
 *   node dist/docs/examples/demo-engine/serve.js --stdio              NDJSON on stdin/stdout (§5.1)
 *   node dist/docs/examples/demo-engine/serve.js --port 8000          HTTP + SSE on 127.0.0.1, base /rcp (§5.2)
 *   node dist/docs/examples/demo-engine/serve.js --federate rcp.json  a federator over the registry's engines (§16)
 * With --port 0 the OS picks a free port. --filter-operators eq,in,gte advertises only those §8
 * operators (the others are then -32005). A federator takes --identity (its name on
 * _meta.federation.path), --capabilities union|intersection (§16.4), --fusion rrf|weighted|convex
 * (§16.3) and --expose-endpoints (catalog/list lists engines' endpoints). --cors-origin <origin>
 * (repeatable) lets a browser page of that origin call the HTTP server. In HTTP mode the first
 * stdout line is the base URL, so a parent process can find it; in stdio mode stdout carries
 * only protocol frames.
 */
import { parseArgs } from "node:util";
import { listen, serveStdio } from "@rcp-gen/runtime/node";
import type { RcpServer } from "@rcp-gen/runtime";
import { FILTER_OPERATORS, type FilterOperator } from "./filter.js";
import { createDemoServer } from "./server.js";

const OPTIONS = {
  stdio: { type: "boolean", default: false },
  port: { type: "string" },
  host: { type: "string", default: "127.0.0.1" },
  "filter-operators": { type: "string" },
  federate: { type: "string" },
  identity: { type: "string" },
  capabilities: { type: "string", default: "union" },
  fusion: { type: "string", default: "rrf" },
  "expose-endpoints": { type: "boolean", default: false },
  "cors-origin": { type: "string", multiple: true, default: [] as string[] },
  resumable: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

const USAGE = `Usage: serve [options]
  --stdio                      NDJSON on stdin/stdout (§5.1)
  --port <n>                   HTTP + SSE on --host, base /rcp (§5.2); 0 lets the OS pick (default 8000)
  --host <address>             interface to bind (default 127.0.0.1)
  --filter-operators <list>    advertise only these §8 operators, comma-separated
  --cors-origin <origin>       let a browser page of this origin call the server (repeatable)
  --resumable                  offer resumable SSE streams (docs/resumable-streams.md)
  --federate <rcp.json>        a federator over the registry's engines (§16)
  --identity <name>            the federator's name on _meta.federation.path
  --capabilities <rule>        union | intersection (§16.4, default union)
  --fusion <method>            rrf | weighted | convex (§16.3, default rrf)
  --expose-endpoints           name engines' endpoints in catalog/list and engine failures
  -h, --help                   this text
`;

function usage(problem: string): never {
  process.stderr.write(`serve: ${problem}\n${USAGE}`);
  process.exit(2);
}

const { values } = parseOptions();

/** An unknown flag or a missing value is a usage error (exit 2), not a stack trace. */
function parseOptions() {
  try {
    return parseArgs({ options: OPTIONS });
  } catch (error) {
    return usage((error as Error).message);
  }
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const filterOperators = values["filter-operators"]?.split(",").map((operator) => operator.trim());
const unknown =
  filterOperators?.filter((operator) => !(FILTER_OPERATORS as readonly string[]).includes(operator)) ?? [];
if (unknown.length > 0) usage(`unknown filter operators: ${unknown.join(", ")}`);
const { capabilities, fusion } = values;
if (capabilities !== "union" && capabilities !== "intersection") usage("--capabilities must be union or intersection");
if (fusion !== "rrf" && fusion !== "weighted" && fusion !== "convex") usage("--fusion must be rrf, weighted or convex");

let server: RcpServer;
let release = async (): Promise<void> => {};
if (values.federate === undefined) {
  server = createDemoServer({
    filterOperators: filterOperators as FilterOperator[] | undefined,
    resumable: values.resumable,
  });
} else {
  // Loaded only here, so an engine's start-up never pays for the federation modules.
  const { createFederatingServer } = await import("../federation/server.js");
  const federating = await createFederatingServer({
    registryPath: values.federate,
    ...(values.identity === undefined ? {} : { identity: values.identity }),
    capabilities,
    fusion,
    exposeEndpoints: values["expose-endpoints"],
  }).catch((error: unknown) => usage(`--federate ${values.federate}: ${(error as Error).message}`));
  server = federating.server;
  release = () => federating.federation.close();
}

if (values.stdio) {
  await serveStdio(server);
  await release();
  process.exit(0);
} else {
  const port = Number(values.port ?? "8000");
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    usage(`--port must be an integer in 0..65535, got ${values.port}`);
  const origins = values["cors-origin"];
  const listening = await listen(server, {
    port,
    host: values.host,
    ...(origins.length > 0 ? { cors: { origins } } : {}),
  });
  process.stdout.write(`${listening.url}\n`);
  const stop = (): void => void Promise.all([listening.close(), release()]).then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
