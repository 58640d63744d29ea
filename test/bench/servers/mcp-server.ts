/**
 * The MCP TypeScript SDK peer: the same fixed retrieve result served as a tool, with its
 * arguments validated by the SDK (zod), returned the usual MCP way as JSON text content.
 * With BENCH_STREAM it first sends progress notifications, stamped like ours at each send.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { buildRetrieveResult } from "../fixture.js";
import { sharedClockMs, streamPlan } from "./probe.js";

type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function retrieveResult(): { content: Array<{ type: "text"; text: string }> } {
  return { content: [{ type: "text", text: JSON.stringify(buildRetrieveResult()) }] };
}

async function streamedRetrieve(
  extra: ToolExtra,
  events: number,
  intervalMs: number,
): Promise<ReturnType<typeof retrieveResult>> {
  const progressToken = extra._meta?.progressToken;
  for (let event = 1; event <= events && progressToken !== undefined; event += 1) {
    await sleep(intervalMs);
    await extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken, progress: event, total: events, message: String(sharedClockMs()) },
    });
  }
  return retrieveResult();
}

export function createBenchMcpServer(): McpServer {
  const server = new McpServer({ name: "bench-mcp", version: "1.0.0" });
  const plan = streamPlan();
  server.registerTool(
    "retrieve",
    {
      description: "Returns the bench's fixed 3-hit retrieve result.",
      inputSchema: { query: z.string(), k: z.number().int().min(1).optional() },
    },
    (_args, extra) => (plan ? streamedRetrieve(extra, plan.events, plan.intervalMs) : retrieveResult()),
  );
  return server;
}
