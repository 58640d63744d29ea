/**
 * Runs the demo engine:
 *   node dist/examples/demo-engine/serve.js --stdio              NDJSON on stdin/stdout (§5.1)
 *   node dist/examples/demo-engine/serve.js --port 8000          HTTP + SSE on 127.0.0.1, base /rcp (§5.2)
 * With --port 0 the OS picks a free port. --filter-operators eq,in,gte advertises only those §8
 * operators (the others are then -32005). In HTTP mode the first stdout line is the base
 * URL, so a parent process can find it; in stdio mode stdout carries only protocol frames.
 */
import { parseArgs } from "node:util";
import { listen, serveStdio } from "@rcp-gen/runtime/node";
import { FILTER_OPERATORS, type FilterOperator } from "./filter.js";
import { createDemoServer } from "./server.js";

const { values } = parseArgs({
  options: {
    stdio: { type: "boolean", default: false },
    port: { type: "string" },
    host: { type: "string", default: "127.0.0.1" },
    "filter-operators": { type: "string" },
  },
});

const filterOperators = values["filter-operators"]?.split(",").map((operator) => operator.trim());
const unknown =
  filterOperators?.filter((operator) => !(FILTER_OPERATORS as readonly string[]).includes(operator)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`serve: unknown filter operators: ${unknown.join(", ")}\n`);
  process.exit(2);
}
const server = createDemoServer({ filterOperators: filterOperators as FilterOperator[] | undefined });

if (values.stdio) {
  await serveStdio(server);
  process.exit(0);
} else {
  const port = Number(values.port ?? "8000");
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`serve: --port must be an integer in 0..65535, got ${values.port}\n`);
    process.exit(2);
  }
  const listening = await listen(server, { port, host: values.host });
  process.stdout.write(`${listening.url}\n`);
  const stop = (): void => void listening.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
