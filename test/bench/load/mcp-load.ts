/**
 * Load generator of scenario 12 (a process of its own), in one of two modes.
 * `latency`: an MCP SDK v2 client through `rcp-gen mcp` to the demo engine, and an RCP client
 * through a byte relay to the same engine, one request at a time, alternating, so drift over
 * the run hits both alike; reports each side's p50/p99. `throughput`: an MCP SDK v2 client
 * keeping `inFlight` retrieve calls in flight on one stdio server; reports calls per second.
 * Prints one JSON line.
 */
import { performance } from "node:perf_hooks";
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
  relayP50Ms: number;
  relayP99Ms: number;
}

export interface McpThroughputResult {
  callsPerSecond: number;
}

async function mcpClient(command: readonly string[]): Promise<Client> {
  const [program, ...args] = command;
  const client = new Client({ name: "rcp-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: program!, args }));
  return client;
}

async function latency(config: McpLatencyConfig): Promise<McpLatencyResult> {
  const mcp = await mcpClient(config.bridge);
  const [program, ...args] = config.relay;
  const rcp = await connectStdio({
    clientInfo: { name: "rcp-bench", version: "1.0.0" },
    transport: { command: program!, args },
  });
  const timed = async (call: () => Promise<unknown>): Promise<number> => {
    const started = performance.now();
    await call();
    return performance.now() - started;
  };
  const bridge: number[] = [];
  const relay: number[] = [];
  for (let index = 0; index < config.warmup + config.requests; index += 1) {
    const viaBridge = await timed(() => mcp.callTool({ name: "retrieve", arguments: { ...config.params } }));
    const viaRelay = await timed(() => rcp.retrieve(config.params));
    if (index < config.warmup) continue;
    bridge.push(viaBridge);
    relay.push(viaRelay);
  }
  await Promise.all([mcp.close(), rcp.close()]);
  return {
    bridgeP50Ms: percentile(bridge, 50),
    bridgeP99Ms: percentile(bridge, 99),
    relayP50Ms: percentile(relay, 50),
    relayP99Ms: percentile(relay, 99),
  };
}

async function throughput(config: McpThroughputConfig): Promise<McpThroughputResult> {
  const client = await mcpClient(config.server);
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
