/**
 * Scenario 12: the MCP bridge (`rcp-gen mcp`, `@rcp-gen/runtime/mcp`).
 * Latency: a retrieve from an MCP SDK v2 client through `rcp-gen mcp` to the demo engine over
 * stdio, against the same client through the floor a user would write by hand (the SDK's own
 * McpServer with a tool calling the same engine through the RCP client, servers/mcp-hand-bridge.ts):
 * the gated p50 ratio is what the bridge costs over that. An RCP client through a byte relay to
 * the same engine is reported beside them: what the MCP side as a whole (the SDK's client and
 * server) costs over RCP. A note splits each side's CPU per call by process.
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
const LATENCY =
  "latency: MCP client → rcp-gen mcp → demo engine, MCP client → hand-written MCP server → same, RCP client → byte relay → same";
const BRIDGE = "throughput: bridge over an in-process engine";
const CANNED = "throughput: MCP SDK server, same schemas, canned result";
/** Reported in a note rather than as columns of the table. */
const CPU_KEYS = [
  "mcpClientCpuUs",
  "bridgeCpuUs",
  "bridgeEngineCpuUs",
  "floorClientCpuUs",
  "floorCpuUs",
  "floorEngineCpuUs",
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
          floor: [process.execPath, serverScript("mcp-hand-bridge"), ...ENGINE],
          relay: [process.execPath, serverScript("byte-relay"), ...ENGINE],
          params,
          requests: latencyRequests,
          warmup,
          timeoutMs,
        }).then((result) => ({
          ...result,
          p50Ratio: ratio(result.bridgeP50Ms, result.floorP50Ms),
          relayP50Ratio: ratio(result.bridgeP50Ms, result.relayP50Ms),
        })),
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
        "bridge p50 / hand-written MCP server p50 (MCP client → each → engine over the RCP client)",
        metric(LATENCY, "p50Ratio"),
        1.15,
      ),
      ratioAtLeast(
        "bridge calls/s / MCP SDK server calls/s (same schemas, canned result)",
        ratio(metric(BRIDGE, "callsPerSecond"), metric(CANNED, "callsPerSecond")),
        0.8,
      ),
    ],
    notes: [
      `${latencyRequests} sequential retrieves per round after ${warmup}, in turn through the bridge, the hand-written MCP server and the relay; ${throughputRequests} calls with ${inFlight} in flight per throughput round.`,
      `reported, not gated: bridge p50 / byte relay p50 (MCP → bridge → engine vs RCP → relay → engine): ${metric(LATENCY, "relayP50Ratio").toFixed(3)}x`,
      `latency, CPU per call in µs: MCP SDK client ${cpu("mcpClientCpuUs")}, rcp-gen mcp ${cpu("bridgeCpuUs")}, its engine ${cpu("bridgeEngineCpuUs")}; MCP SDK client ${cpu("floorClientCpuUs")}, hand-written MCP server ${cpu("floorCpuUs")}, its engine ${cpu("floorEngineCpuUs")}; RCP client ${cpu("rcpClientCpuUs")}, byte relay ${cpu("relayCpuUs")}, its engine ${cpu("relayEngineCpuUs")}.`,
    ],
    samples: Object.fromEntries(samples),
  };
}
