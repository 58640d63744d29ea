/**
 * Scenario 14 (issue 42): `rcp-gen mock` answering `retrieve` over stdio with no latency,
 * pipelined, beside the demo engine (the mock is an engine on the same runtime: making its
 * results must not dominate); and `rcp-gen call ... --http` cold, process start to the result
 * printed, beside a plain Node script importing the generated client (the floor) and curl.
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { alternate, medianTable } from "../alternate.js";
import { RETRIEVE_PARAMS } from "../fixture.js";
import type { Mode } from "../modes.js";
import { serverScript, type StdioPeer } from "../peers.js";
import { awaitLine, spawnNode, stopChild } from "../processes.js";
import { ratioAtLeast, ratioAtMost, type ScenarioReport } from "../report.js";
import { ratio } from "../stats.js";
import { stdioRound } from "./stdio.js";

const root = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));
const SERVE = root("dist/docs/examples/demo-engine/serve.js");
const CLI = root("generator/dist/cli/main.js");
const CALL_FLOOR = fileURLToPath(new URL("../load/call-floor.js", import.meta.url));
const PROBE = ["--import", serverScript("probe-preload")];

const CURL_INSTALLED = spawnSync("curl", ["--version"]).error === undefined;
const MOCK_LABEL = "rcp-gen mock";
const DEMO_LABEL = "demo engine";
const STDIO: readonly StdioPeer[] = [
  {
    label: MOCK_LABEL,
    server: {
      script: CLI,
      args: ["mock", "--stdio", "--schema", root("schema"), "--examples", root("test/schema/fixtures/valid")],
      nodeFlags: PROBE,
    },
    dialect: "rcp",
  },
  { label: DEMO_LABEL, server: { script: SERVE, args: ["--stdio"], nodeFlags: PROBE }, dialect: "rcp" },
];

/** Milliseconds from spawning `command` to its exit, which must be 0 with the result on stdout. */
function coldMs(command: readonly string[]): Promise<number> {
  const started = performance.now();
  const [program, ...args] = command;
  const child = spawn(program!, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  return new Promise((resolve, reject) =>
    child.once("close", (code) => {
      const ms = performance.now() - started;
      if (code !== 0 || !stdout.includes('"hits"')) reject(new Error(`${command.join(" ")} exited ${code}: ${stderr}`));
      else resolve(ms);
    }),
  );
}

export async function mockCallScenario(mode: Mode): Promise<ScenarioReport> {
  const served = await alternate(mode.rounds, STDIO, (peer) => stdioRound(peer, mode.engines));
  const stdio = medianTable(STDIO, served);
  const rate = (label: string) => stdio.metric(label, "requestsPerSecond");

  const demo = spawnNode({ script: SERVE, args: ["--port", "0"] });
  try {
    const url = await awaitLine(demo.stdout!, (line) => (line.startsWith("http://") ? line.trim() : undefined), 15_000);
    const params = JSON.stringify(RETRIEVE_PARAMS);
    const callers = [
      {
        label: "rcp-gen call --http",
        command: [process.execPath, CLI, "call", "retrieve", params, "--schema", root("schema"), "--http", url],
      },
      { label: "node + generated client", command: [process.execPath, CALL_FLOOR, url, params] },
    ];
    // curl is reported beside them where it is installed (a machine with Node and Python alone may lack it).
    if (CURL_INSTALLED)
      callers.push({
        label: "curl",
        command: [
          "curl",
          "-sS",
          "-X",
          "POST",
          "-H",
          "Content-Type: application/json",
          "-d",
          `{"jsonrpc":"2.0","id":1,"method":"retrieve","params":${params}}`,
          `${url}/retrieve`,
        ],
      });
    const cold = await alternate(mode.startup.rounds, callers, async (caller) => ({
      msToResult: await coldMs(caller.command),
    }));
    const calls = medianTable(callers, cold);
    const ms = (label: string) => calls.metric(label, "msToResult");
    return {
      id: "14",
      title: `rcp-gen mock and rcp-gen call: mock retrieve over stdio (${mode.engines.requests} requests, ${mode.engines.inFlight} in flight), call --http cold, median of ${mode.rounds} and ${mode.startup.rounds} rounds`,
      rows: [...stdio.rows, ...calls.rows],
      targets: [
        ratioAtLeast(
          "stdio retrieve req/s, mock (--latency 0) / demo engine",
          ratio(rate(MOCK_LABEL), rate(DEMO_LABEL)),
          0.8,
        ),
        ratioAtMost(
          "cold call to result, rcp-gen call --http / node + generated client",
          ratio(ms("rcp-gen call --http"), ms("node + generated client")),
          2,
        ),
      ],
      samples: { ...Object.fromEntries(served), ...Object.fromEntries(cold) },
      notes: [
        CURL_INSTALLED
          ? `curl / node + generated client: ${ratio(ms("curl"), ms("node + generated client")).toFixed(2)}x (curl sends one stateless HTTP request, no initialize)`
          : "curl is not installed here: not reported",
        "the mock serves the repository's schema with its examples (test/schema/fixtures/valid); the demo engine searches its corpus",
        "cold: from spawning the process to its exit with the result printed, the demo engine already listening",
      ],
    };
  } finally {
    await stopChild(demo);
  }
}
