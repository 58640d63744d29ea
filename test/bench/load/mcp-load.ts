/**
 * Load generator of scenario 12 (a process of its own), in one of two modes.
 * `latency`: an MCP SDK v2 client through `rcp-gen mcp` to the demo engine, the same client
 * through a hand-written MCP server calling the same engine with the RCP client
 * (servers/mcp-hand-bridge.ts), and an RCP client through a byte relay to the same engine, one
 * request at a time, in turn, so drift over the run hits all alike; reports each side's p50/p99,
 * and each side's CPU per call in the client (this process, around its calls), in the middle
 * process and in its engine (/proc).
 * `throughput`: an MCP SDK v2 client keeping `inFlight` retrieve calls in flight on one stdio
 * server; reports calls per second.
 * Prints one JSON line.
 */
import { performance } from "node:perf_hooks";
import { childPids, procCpuMicros } from "../proc-cpu.js";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connectStdio } from "../../../generated/node.js";
import type { RetrieveParams } from "../../../generated/types.js";
import { percentile } from "../stats.js";
import { loadConfig, reportResult } from "./main.js";

export interface McpLatencyConfig {
  mode: "latency";
  /** `rcp-gen mcp -- <engine>` as a command. */
  bridge: readonly string[];
  /** `mcp-hand-bridge.js <engine>` as a command. */
  floor: readonly string[];
  /** `byte-relay.js <engine>` as a command. */
  relay: readonly string[];
  params: RetrieveParams;
  requests: number;
  warmup: number;
  timeoutMs: number;
}

export interface McpThroughputConfig {
  mode: "throughput";
  server: readonly string[];
  params: RetrieveParams;
  requests: number;
  warmup: number;
  inFlight: number;
  timeoutMs: number;
}

export interface McpLatencyResult {
  bridgeP50Ms: number;
  bridgeP99Ms: number;
  floorP50Ms: number;
  floorP99Ms: number;
  relayP50Ms: number;
  relayP99Ms: number;
  /** CPU per call, µs, of each process on each side. */
  mcpClientCpuUs: number;
  bridgeCpuUs: number;
  bridgeEngineCpuUs: number;
  floorClientCpuUs: number;
  floorCpuUs: number;
  floorEngineCpuUs: number;
  rcpClientCpuUs: number;
  relayCpuUs: number;
  relayEngineCpuUs: number;
}

export interface McpThroughputResult {
  callsPerSecond: number;
}

async function mcpClient(command: readonly string[]): Promise<{ client: Client; pid: number }> {
  const [program, ...args] = command;
  const client = new Client({ name: "rcp-bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command: program!, args });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

/** One side's calls: their durations, and the CPU this process spent in them. */
class Side {
  readonly durationsMs: number[] = [];
  cpuMicros = 0;

  async time(call: () => Promise<unknown>, measured: boolean): Promise<void> {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await call();
    if (!measured) return;
    this.durationsMs.push(performance.now() - started);
    const spent = process.cpuUsage(cpu);
    this.cpuMicros += spent.user + spent.system;
  }
}

async function latency(config: McpLatencyConfig): Promise<McpLatencyResult> {
  const mcp = await mcpClient(config.bridge);
  const handMcp = await mcpClient(config.floor);
  const [program, ...args] = config.relay;
  const rcp = await connectStdio({
    clientInfo: { name: "rcp-bench", version: "1.0.0" },
    transport: { command: program!, args },
  });
  const relayPid = childPids(process.pid).find((pid) => pid !== mcp.pid && pid !== handMcp.pid)!;
  const middles = [mcp.pid, handMcp.pid, relayPid];
  const pids = middles.flatMap((pid) => [pid, childPids(pid)[0]!]);
  const bridge = new Side();
  const floor = new Side();
  const relay = new Side();
  let cpuBefore: number[] = [];
  const callTool = (client: Client) => client.callTool({ name: "retrieve", arguments: { ...config.params } });
  for (let index = 0; index < config.warmup + config.requests; index += 1) {
    if (index === config.warmup) cpuBefore = pids.map(procCpuMicros);
    const measured = index >= config.warmup;
    await bridge.time(() => callTool(mcp.client), measured);
    await floor.time(() => callTool(handMcp.client), measured);
    await relay.time(() => rcp.retrieve(config.params), measured);
  }
  const [bridgeCpu, bridgeEngineCpu, floorCpu, floorEngineCpu, relayCpu, relayEngineCpu] = pids.map(
    (pid, index) => (procCpuMicros(pid) - cpuBefore[index]!) / config.requests,
  );
  await Promise.all([mcp.client.close(), handMcp.client.close(), rcp.close()]);
  return {
    bridgeP50Ms: percentile(bridge.durationsMs, 50),
    bridgeP99Ms: percentile(bridge.durationsMs, 99),
    floorP50Ms: percentile(floor.durationsMs, 50),
    floorP99Ms: percentile(floor.durationsMs, 99),
    relayP50Ms: percentile(relay.durationsMs, 50),
    relayP99Ms: percentile(relay.durationsMs, 99),
    mcpClientCpuUs: bridge.cpuMicros / config.requests,
    bridgeCpuUs: bridgeCpu!,
    bridgeEngineCpuUs: bridgeEngineCpu!,
    floorClientCpuUs: floor.cpuMicros / config.requests,
    floorCpuUs: floorCpu!,
    floorEngineCpuUs: floorEngineCpu!,
    rcpClientCpuUs: relay.cpuMicros / config.requests,
    relayCpuUs: relayCpu!,
    relayEngineCpuUs: relayEngineCpu!,
  };
}

async function throughput(config: McpThroughputConfig): Promise<McpThroughputResult> {
  const { client } = await mcpClient(config.server);
  const run = async (calls: number): Promise<void> => {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls) {
        next += 1;
        const result = await client.callTool({ name: "retrieve", arguments: { ...config.params } });
        if (result.isError) throw new Error(`retrieve failed: ${JSON.stringify(result.content)}`);
      }
    };
    await Promise.all(Array.from({ length: config.inFlight }, worker));
  };
  await run(config.warmup);
  const started = performance.now();
  await run(config.requests);
  const seconds = (performance.now() - started) / 1000;
  await client.close();
  return { callsPerSecond: config.requests / seconds };
}

const config = loadConfig<McpLatencyConfig | McpThroughputConfig>();
await reportResult("mcp-load", config.timeoutMs, (): Promise<McpLatencyResult | McpThroughputResult> =>
  config.mode === "latency" ? latency(config) : throughput(config),
);
process.exit(0);
