/**
 * The stdio floor: the least a JSON-RPC server over NDJSON can do. Read a line, JSON.parse,
 * build the fixed result, JSON.stringify, write. No validation, no session, no dispatch table.
 */
import { buildInitializeResult, buildRetrieveResult } from "../fixture.js";
import { createHoldGate, installProbe } from "./probe.js";

installProbe();
const hold = createHoldGate();

interface Request {
  id?: number | string;
  method: string;
}

function answer(request: Request): void {
  const result = request.method === "initialize" ? buildInitializeResult() : buildRetrieveResult();
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }) + "\n");
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    if (line.length === 0) continue;
    const request = JSON.parse(line) as Request;
    if (request.id === undefined) continue;
    if (hold && request.method === "retrieve") void hold().then(() => answer(request));
    else answer(request);
  }
});
process.stdin.on("end", () => process.exit(0));
