/**
 * Scenario 12: the MCP bridge (`rcp-gen mcp`, `@rcp-gen/runtime/mcp`).
 * Latency: a retrieve from an MCP SDK v2 client through `rcp-gen mcp` to the demo engine over
 * stdio, against an RCP client through a byte relay to the same engine: two hops each, so the
 * p50 ratio is what the MCP side (the SDK's client, and the bridge on the SDK's server) costs over
 * an RCP client and a process that only copies bytes. A note splits each side's CPU per call by
 * process.
 * Throughput: the bridge over an in-process engine (the generated server answering the fixed
 * result), against an MCP SDK v2 server with the same fromJsonSchema schemas returning the same
 * result: the SDK is the floor the bridge runs on.
 */
import { fileURLToPath } from "node:url";
import { alternate, medianTable } from "../alternate.js";
import { RETRIEVE_PARAMS } from "../fixture.js";
import type { McpLatencyConfig, McpLatencyResult, McpThroughputConfig, McpThroughputResult } from "../load/mcp-load.js";
import type { Mode } from "../modes.js";
import { serverScript } from "../peers.js";
import { runJsonChild } from "../processes.js";
import { ratioAtLeast, ratioAtMost, type ScenarioReport } from "../report.js";
import { ratio } from "../stats.js";
import { loadScript } from "./scripts.js";

const RCP_GEN = fileURLToPath(new URL("../../../../generator/bin/rcp-gen.js", import.meta.url));
const SERVE = fileURLToPath(new URL("../../../docs/examples/demo-engine/serve.js", import.meta.url));
const ENGINE = [process.execPath, SERVE, "--stdio"];
const LATENCY = "latency: MCP client → rcp-gen mcp → demo engine, RCP client → byte relay → demo engine";
const BRIDGE = "throughput: bridge over an in-process engine";
const CANNED = "throughput: MCP SDK server, same schemas, canned result";
/** Reported in a note rather than as columns of the table. */
const CPU_KEYS = [
  "mcpClientCpuUs",
  "bridgeCpuUs",
  "bridgeEngineCpuUs",
  "rcpClientCpuUs",
  "relayCpuUs",
  "relayEngineCpuUs",
] as const;

function runLoad<R>(config: McpLatencyConfig | McpThroughputConfig): Promise<R> {
  return runJsonChild<R>({
    script: loadScript("mcp-load"),
    args: [JSON.stringify(config)],
    timeoutMs: config.timeoutMs + 10_000,
  });
}

export async function mcpScenario(mode: Mode): Promise<ScenarioReport> {
  const { latencyRequests, throughputRequests, warmup, inFlight } = mode.mcp;
  const timeoutMs = 60_000 + (latencyRequests + throughputRequests) * 20;
  const params = { ...RETRIEVE_PARAMS };
  const contenders = [
    {
      label: LATENCY,
      run: () =>
        runLoad<McpLatencyResult>({
          mode: "latency",
          bridge: [process.execPath, RCP_GEN, "mcp", "--", ...ENGINE],
          relay: [process.execPath, serverScript("byte-relay"), ...ENGINE],
          params,
          requests: latencyRequests,
          warmup,
          timeoutMs,
        }).then((result) => ({ ...result, p50Ratio: ratio(result.bridgeP50Ms, result.relayP50Ms) })),
    },
    ...[
      { label: BRIDGE, server: "mcp-bridge-inprocess" },
      { label: CANNED, server: "mcp-canned" },
    ].map(({ label, server }) => ({
      label,
      run: async () => ({
        ...(await runLoad<McpThroughputResult>({
          mode: "throughput",
          server: [process.execPath, serverScript(server)],
          params,
          requests: throughputRequests,
          warmup,
          inFlight,
          timeoutMs,
        })),
      }),
    })),
  ];
  const samples = await alternate(
    mode.rounds,
    contenders,
    (contender) => contender.run() as Promise<Record<string, number>>,
  );
  const { rows, metric } = medianTable(contenders, samples);
  const cpu = (key: (typeof CPU_KEYS)[number]) => Math.round(metric(LATENCY, key)).toLocaleString("en-US");
  return {
    id: "12",
    title: "MCP bridge: retrieve latency through rcp-gen mcp, throughput of the bridge over the MCP SDK",
    rows: rows.map((row) => ({
      ...row,
      metrics: Object.fromEntries(
        Object.entries(row.metrics).filter(([key]) => !(CPU_KEYS as readonly string[]).includes(key)),
      ),
    })),
    targets: [
      ratioAtMost(
        "bridge p50 / byte relay p50 (MCP → bridge → engine vs RCP → relay → engine)",
        metric(LATENCY, "p50Ratio"),
        1.5,
      ),
      ratioAtLeast(
        "bridge calls/s / MCP SDK server calls/s (same schemas, canned result)",
        ratio(metric(BRIDGE, "callsPerSecond"), metric(CANNED, "callsPerSecond")),
        0.8,
      ),
    ],
    notes: [
      `${latencyRequests} sequential retrieves per round after ${warmup}, alternating bridge and relay; ${throughputRequests} calls with ${inFlight} in flight per throughput round.`,
      `latency, CPU per call in µs: MCP SDK client ${cpu("mcpClientCpuUs")}, rcp-gen mcp ${cpu("bridgeCpuUs")}, its engine ${cpu("bridgeEngineCpuUs")}; RCP client ${cpu("rcpClientCpuUs")}, byte relay ${cpu("relayCpuUs")}, its engine ${cpu("relayEngineCpuUs")}.`,
    ],
    samples: Object.fromEntries(samples),
  };
}
