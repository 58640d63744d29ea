/**
 * The MCP SDK v2 client (code nobody here wrote) against `rcp-gen mcp -- <demo engine>` over
 * stdio, with the default 2025 handshake and with `versionNegotiation: { mode: "auto" }`, which
 * lands on 2026-07-28: tools listed from the schema, retrieve with progress before its result,
 * log levels, cancellation reaching the engine's handler, RCP errors as isError results.
 */
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, LOG_LEVEL_META_KEY, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  ABORTED_LINE,
  bridgeCommand,
  DEMO_TOOLS,
  SLOW_META,
  UNKNOWN_FIELD_FILTER,
  waitFor,
} from "./bridge-process.js";

const handshakes = [
  { name: "default handshake", options: {}, era: "2025-11-25" },
  { name: "versionNegotiation auto", options: { versionNegotiation: { mode: "auto" as const } }, era: "2026-07-28" },
];

describe.each(handshakes)("MCP SDK v2 client, $name, over stdio", ({ options, era }) => {
  let client: Client;
  let stderr = "";
  const logs: Array<{ level: string; data: unknown }> = [];
  const modern = era === "2026-07-28";

  beforeAll(async () => {
    const transport = new StdioClientTransport({ ...bridgeCommand(), stderr: "pipe" });
    (transport.stderr as Readable).setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    client = new Client({ name: "rcp-gen-tests", version: "0.0.0" }, options);
    client.setNotificationHandler("notifications/message", (notification) => void logs.push(notification.params));
    await client.connect(transport);
  });
  afterAll(() => client?.close());

  /** A retrieve at `level` (per request in 2026-07-28, per session before), its log lines. */
  async function logsOfRetrieveAt(level: "warning" | "info" | undefined): Promise<unknown[]> {
    if (!modern && level !== undefined) await client.setLoggingLevel(level);
    logs.length = 0;
    await client.callTool({
      name: "retrieve",
      arguments: { query: "greenhouse compost", k: 2 },
      ...(modern && level !== undefined ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {}),
    });
    return [...logs];
  }

  it(`negotiates ${era}`, () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(era);
  });

  it("lists one tool per advertised method, schemas bundled, annotations from x-rcp", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(DEMO_TOOLS);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const retrieve = byName.get("retrieve")!;
    expect(retrieve.description).toMatch(/§7\.7/);
    expect(retrieve.inputSchema.properties).not.toHaveProperty("_meta");
    expect(retrieve.inputSchema.required).toEqual(["query", "k"]);
    expect(JSON.stringify(retrieve.inputSchema)).not.toMatch(/"\$ref":"(?!#\/\$defs\/)/);
    expect(retrieve.outputSchema?.properties).toHaveProperty("hits");
    expect(retrieve.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get("index_delete")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
  });

  it("calls retrieve: progress notifications first, then the result as structuredContent and readable text", async () => {
    const seen: string[] = [];
    const result = await client.callTool(
      { name: "retrieve", arguments: { query: "greenhouse compost", k: 2 } },
      { onprogress: (progress) => void seen.push(`progress ${progress.progress}/${progress.total} ${progress.message}`) },
    );
    seen.push("result");
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe("result");
    expect(seen[0]).toMatch(/^progress 0\.\d+\/1 recall: /);
    const hits = (result.structuredContent as { hits: Array<{ id: string; score: number }> }).hits;
    expect(hits).toHaveLength(2);
    const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
    expect(text).toContain(`id: ${hits[0]!.id}  score: ${hits[0]!.score}`);
    expect(text).toMatch(/citation: "[^"]+", demo-corpus/);
  });

  it("forwards log lines only at or above the level asked for, and none when none was asked for", async () => {
    expect(await logsOfRetrieveAt(undefined)).toEqual([]);
    expect(await logsOfRetrieveAt("warning")).toEqual([]);
    const info = await logsOfRetrieveAt("info");
    expect(info.length).toBeGreaterThan(0);
    expect(info).toContainEqual(expect.objectContaining({ level: "info", logger: "demo-engine" }));
  });

  it("answers an RCP error with an isError result carrying its code, message and data", async () => {
    const result = await client.callTool({
      name: "retrieve",
      arguments: { query: "compost", k: 2, filter: UNKNOWN_FIELD_FILTER },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    const { error } = JSON.parse(text.slice(text.indexOf("\n") + 1)) as {
      error: { code: number; message: string; data?: { field?: string } };
    };
    expect(text.split("\n")[0]).toBe(`RCP error ${error.code}: ${error.message}`);
    expect(error.code).toBe(-32602);
    expect(error.data?.field).toMatch(/^filter/);
  });

  it("answers an unknown tool with -32602", async () => {
    await expect(client.callTool({ name: "initialize", arguments: {} })).rejects.toSatisfy(
      (error) => error instanceof ProtocolError && error.code === -32602,
    );
  });

  it("cancels: aborting the MCP call aborts the engine's handler", async () => {
    const controller = new AbortController();
    const call = client.callTool(
      { name: "retrieve", arguments: { query: "compost", k: 2 }, _meta: SLOW_META },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort("the user clicked stop"), 300);
    await expect(call).rejects.toThrow();
    await waitFor(() => stderr, ABORTED_LINE);
  });
});
